// adopt-background.test.ts: a claude background session started outside tether (`claude --bg`, its
// own config dir, claude's own daemon) is listed, adopted live with `tether adopt <id>`, answers a
// prompt sent from the hub, has its permission dialog answered from the hub, and still runs in
// claude's pool after Detach (the hub's End). Bad input: an id no longer running, a second adopter of
// the same id, a claude without background sessions: each a clear error, nothing half-adopted.
import { existsSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DialogInput, Session } from '@tether/shared';
import { claudeBackgroundSessions } from '../../cli/src/agents/claude/background.ts';
import { hasToolResult, startFakeAnthropic, text, toolUse, userSays, when, type FakeAnthropic, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox, type ClaudeSandbox } from '../harness/claude.ts';
import { startBackgroundClaude, type BackgroundClaude } from '../harness/claude-background.ts';
import { useCleanups, type Defer } from '../harness/cleanups.ts';
import { startTetherInPty } from '../harness/desk.ts';
import { startHub, type HubHandle } from '../harness/hub.ts';
import { watchSession } from '../harness/runner.ts';
import { runTether } from '../harness/tether-cli.ts';
import { startDaemon, spawnVia } from '../harness/daemon.ts';
import { connectPhone } from '../harness/world.ts';
import { waitFound } from '../harness/outside.ts';
import { emitAck } from '../harness/hub.ts';

const defer = useCleanups();

type World = { fake: FakeAnthropic; hub: HubHandle; sandbox: ClaudeSandbox; bg: BackgroundClaude; home: string; env: Record<string, string> };

/** A hub, a fake API, and a claude --bg session that has answered its first prompt. */
async function backgroundWorld(defer: Defer, script: ScriptTurn[]): Promise<World> {
  const fake = await startFakeAnthropic({ script: [when(userSays('say hello'), text('Hello from the background.')), ...script] });
  defer(() => fake.stop());
  const hub = await startHub();
  defer(() => hub.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const bg = await startBackgroundClaude({ sandbox, prompt: 'say hello' });
  // Registered before the sandbox's removal runs: claude's processes go first.
  defer(() => bg.stop());
  // Its first turn answered (the request is recorded before its reply, so the reply is waited for).
  const first = await fake.waitForRequest((r) => r.kind === 'main', { timeoutMs: 30_000 });
  for (const deadline = Date.now() + 30_000; first.outcome !== 'completed'; await Bun.sleep(50)) {
    if (Date.now() > deadline) throw new Error('the background session\'s first turn never completed');
  }
  const home = mkdtempSync(join(tmpdir(), 'tether-adopt-'));
  defer(() => rmSync(home, { recursive: true, force: true }));
  const env = { ...sandbox.env, TETHER_HOME: home, TETHER_CLAUDE_BIN: claudeBin(), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token };
  return { fake, hub, sandbox, bg, home, env };
}

function adoptAtDesk(world: World, sessionId: string, flags: string[] = []) {
  const desk = startTetherInPty({ args: ['adopt', world.bg.id, ...flags], env: { ...world.env, TETHER_SESSION_ID: sessionId }, cwd: world.sandbox.cwd, cols: 100, rows: 30 });
  defer(() => desk.stop());
  return desk;
}

describe('a claude background session adopted live', () => {
  it('is listed, adopted, answers the hub, has its dialog answered from the hub, and runs on after Detach', async () => {
    const world = await backgroundWorld(defer, [
      // Slow enough that the phone sees the turn running: no hook says so here, claude's status file does.
      when(userSays('from the hub: hello'), { ...text('Hello, hub.'), delayMs: 1_500 }),
      when(userSays('from the hub: make a file'), toolUse('Bash', { command: 'touch adopted-ran', description: 'make a file' })),
      when(hasToolResult({ isError: false }), text('The file is there.')),
    ]);
    const { bg, sandbox, hub, fake } = world;

    const listed = await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() });
    const entry = listed.find((s) => s.id === bg.id);
    expect(entry).toMatchObject({ id: bg.id, cwd: sandbox.cwd, kind: 'background' });
    const transcript = sandbox.transcriptPath(entry!.sessionId);
    expect(existsSync(transcript)).toBe(true);

    const sessionId = crypto.randomUUID();
    const adoptedAt = Date.now();
    const desk = adoptAtDesk(world, sessionId);
    const phone = await watchSession({ hub, sessionId });
    defer(() => phone.stop());
    const session = await phone.waitFor(() => (phone.session()?.status === 'idle' ? phone.session() : null), { what: 'the adopted session idle', timeoutMs: 30_000 });
    console.log(`adopted and idle on the hub in ${Date.now() - adoptedAt} ms`);
    expect(session).toMatchObject({ launchKind: 'pty', agentSessionId: entry!.sessionId, capabilities: { adopted: { backgroundId: bg.id, note: expect.stringMatching(/^adopted: no hook approvals/) }, relays: { requests: ['dialog'], sessionRules: false } } });
    // The conversation before the adoption is the chat.
    await phone.waitFor(() => phone.messages().some((m) => JSON.stringify(m).includes('Hello from the background.')), { what: 'the earlier reply in the chat' });
    await desk.waitForScreen('Hello from the background.');

    // A second adopter of the same session is told who has it, and nothing of it reaches the hub.
    const second = await runTether({ args: ['adopt', bg.id], env: { ...world.env, TETHER_SESSION_ID: crypto.randomUUID() }, cwd: sandbox.cwd });
    expect(second.code).toBe(127);
    expect(second.stderr).toContain(`claude background session ${bg.id} is already adopted by tether session ${sessionId}`);

    // A prompt from the hub reaches the model through the attached TUI.
    expect((await phone.send('from the hub: hello')).ok).toBe(true);
    await fake.waitForRequest((r) => r.kind === 'main' && JSON.stringify(r.body?.messages ?? []).includes('from the hub: hello'), { timeoutMs: 30_000 });
    await phone.waitFor(() => phone.session()?.status === 'thinking', { what: 'the turn seen running' });
    await phone.waitFor(() => phone.messages().some((m) => JSON.stringify(m).includes('Hello, hub.')), { what: 'the reply in the chat', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the reply', timeoutMs: 30_000 });

    // A tool that needs permission: claude's own dialog reaches the phone as a dialog, answered there.
    expect((await phone.send('from the hub: make a file')).ok).toBe(true);
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the permission dialog on the phone', timeoutMs: 30_000 });
    expect(JSON.stringify(dialog)).toContain('touch adopted-ran');
    expect(phone.requested.filter((r) => r.kind === 'permission')).toEqual([]); // no hook approvals here
    const yes = (dialog.toolInput as DialogInput).options.find((o) => o.label === 'Yes');
    expect(yes).toBeDefined();
    const answered = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: yes!.key } });
    expect(answered.ok).toBe(true);
    await fake.waitForRequest((r) => r.kind === 'main' && hasToolResult({ isError: false })(r.body!), { timeoutMs: 30_000 });
    expect(existsSync(join(sandbox.cwd, 'adopted-ran'))).toBe(true);
    await phone.waitFor(() => phone.messages().some((m) => JSON.stringify(m).includes('The file is there.')), { what: 'the reply after the tool', timeoutMs: 30_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the tool', timeoutMs: 30_000 });

    // End from the hub detaches: our attach view goes, the session runs on in claude's pool.
    const stopped = await phone.emit('session:stop', { sessionId });
    expect(stopped.ok).toBe(true);
    expect(await desk.exited).toBe(0);
    const after = await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() });
    expect(after.map((s) => s.id)).toContain(bg.id);
    // …and can be adopted again (the claim went with the runner).
    const againId = crypto.randomUUID();
    const again = adoptAtDesk(world, againId, ['--json']);
    const phoneAgain = await watchSession({ hub, sessionId: againId });
    defer(() => phoneAgain.stop());
    await phoneAgain.waitFor(() => phoneAgain.session()?.status === 'idle', { what: 'adopted again', timeoutMs: 30_000 });
    await again.waitForScreen('The file is there.');
    again.write('\x1a'); // Ctrl+Z at the desk: detached, exit 0
    expect(await again.exited).toBe(0);
    expect(again.output()).toContain(JSON.stringify({ sessionId: againId, backgroundId: bg.id, exitCode: 0, failure: null, detached: true }));
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).toContain(bg.id);
  }, 180_000);

  it('refuses an id claude no longer runs, stops one only when confirmed, and leaves nothing half-adopted', async () => {
    const world = await backgroundWorld(defer, []);
    const { bg, sandbox, hub } = world;
    const env = { ...world.env, TETHER_SESSION_ID: crypto.randomUUID() };

    const unconfirmed = await runTether({ args: ['adopt', bg.id, '--stop'], env, cwd: sandbox.cwd });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain(`This stops claude background session ${bg.id} in claude's own pool (claude stop ${bg.id})`);
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).toContain(bg.id);

    const stopped = await runTether({ args: ['adopt', bg.id, '--stop', '--yes', '--json'], env, cwd: sandbox.cwd });
    expect(stopped).toMatchObject({ code: 0, stdout: `${JSON.stringify({ stopped: bg.id })}\n` });
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).not.toContain(bg.id);

    const gone = await runTether({ args: ['adopt', bg.id], env, cwd: sandbox.cwd });
    expect(gone.code).toBe(127);
    expect(gone.stderr).toContain(`claude runs no background session ${bg.id} now (it may have ended)`);
    const sessions = await fetch(`${hub.url}/api/sessions`, { headers: { authorization: `Bearer ${hub.token}` } });
    expect(JSON.stringify(await sessions.json())).not.toContain(env.TETHER_SESSION_ID);
  }, 120_000);

  it('is adopted from the phone through the daemon: two adopters at once, one wins and the other is told; Resume attaches again', async () => {
    const world = await backgroundWorld(defer, []);
    const { bg, sandbox, hub } = world;
    const daemon = await startDaemon({ hub, sandbox });
    defer(() => daemon.stop());
    const phone = await connectPhone(defer, hub);
    const tablet = await connectPhone(defer, hub);
    const ask = { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'attached', backgroundId: bg.id };
    const spawnAt = Date.now();
    const acks = await Promise.all([spawnVia(phone, ask), spawnVia(tablet, ask)]);
    console.log(`adopted through the daemon in ${Date.now() - spawnAt} ms`);
    const won = acks.filter((a) => a.ok);
    const lost = acks.filter((a) => !a.ok);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.error).toContain(`claude background session ${bg.id} is already adopted by tether session ${won[0]!.session!.id}`);
    expect(won[0]!.session).toMatchObject({ launchKind: 'pty', status: 'idle', machineId: daemon.machineId(), capabilities: { adopted: { backgroundId: bg.id } } });
    // The loser's session is ended as failed with that reason: nothing of it runs.
    const sessions = (await (await fetch(`${hub.url}/api/sessions`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as { sessions: Session[] };
    expect(sessions.sessions.filter((s) => s.id !== won[0]!.session!.id)).toEqual([expect.objectContaining({ status: 'failed' })]);

    const watch = await watchSession({ hub, sessionId: won[0]!.session!.id });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.messages().some((m) => JSON.stringify(m).includes('Hello from the background.')), { what: 'the earlier reply in the chat' });
    const adoptedId = won[0]!.session!.id;
    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: adoptedId }, 30_000);
    expect(stop.ok).toBe(true);
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).toContain(bg.id);

    // Resume after a detach attaches again: the same tether session, the session still in claude's pool.
    const resumeAt = Date.now();
    const resumed = await emitAck<{ session: Session }>(phone, 'session:resume', { sessionId: adoptedId }, 60_000);
    console.log(`attached again through the daemon in ${Date.now() - resumeAt} ms`);
    expect(resumed.ok).toBe(true);
    if (resumed.ok) expect(resumed.session).toMatchObject({ id: adoptedId, status: 'idle', launchKind: 'pty', capabilities: { adopted: { backgroundId: bg.id } } });
    expect((await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: adoptedId }, 30_000)).ok).toBe(true);
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).toContain(bg.id);
  }, 150_000);

  it("is found on the machine with its id, adopted from that row, and stopped in claude's pool from the phone", async () => {
    const world = await backgroundWorld(defer, []);
    const { bg, sandbox, hub } = world;
    const daemon = await startDaemon({ hub, sandbox, args: ['--outside'] });
    defer(() => daemon.stop());
    const machineId = daemon.machineId();
    const phone = await connectPhone(defer, hub);

    // Its status file says it runs in claude's pool: listed live, with the id claude's verbs take.
    const found = await waitFound({ hubUrl: hub.url, token: hub.token, machineId, match: (s) => s.backgroundId === bg.id });
    expect(found).toMatchObject({ agent: 'claude', folder: sandbox.cwd, live: true, backgroundId: bg.id });

    // Adopt from its row: attached live (not resumed), its conversation the chat.
    const adopted = await emitAck<{ session: Session }>(phone, 'outside:adopt', { machineId, agentSessionId: found.agentSessionId }, 60_000);
    expect(adopted.ok).toBe(true);
    if (!adopted.ok) return;
    expect(adopted.session).toMatchObject({ launchKind: 'pty', status: 'idle', agentSessionId: found.agentSessionId, capabilities: { adopted: { backgroundId: bg.id, stop: true } } });
    const watch = await watchSession({ hub, sessionId: adopted.session.id });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.messages().some((m) => JSON.stringify(m).includes('Hello from the background.')), { what: 'the earlier reply in the chat' });
    // Adopted: no longer listed; a second adopt of the row is told.
    expect(await emitAck(phone, 'outside:adopt', { machineId, agentSessionId: found.agentSessionId }, 30_000)).toMatchObject({ ok: false, reason: 'session_live', error: expect.stringContaining('someone else is adopting this conversation') });

    // Stop in claude's pool (the phone asked a person first): claude stop ran, nothing of it runs on.
    const stopAt = Date.now();
    const stopped = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: adopted.session.id, stopInPool: true }, 30_000);
    console.log(`stopped in claude's pool from the phone in ${Date.now() - stopAt} ms`);
    expect(stopped).toMatchObject({ ok: true, session: { status: 'ended' } });
    expect((await claudeBackgroundSessions({ configDir: sandbox.configDir, claudeBin: claudeBin() })).map((s) => s.id)).not.toContain(bg.id);
  }, 150_000);

  it('is absent, with its reason, from a claude that has no background sessions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-old-claude-'));
    defer(() => rmSync(dir, { recursive: true, force: true }));
    // A claude from before background sessions: its help lists neither --bg nor `agents`.
    const old = join(dir, 'claude');
    writeFileSync(old, '#!/bin/sh\ncase "$1" in\n  --version) echo "2.0.1 (Claude Code)";;\n  --help) printf "Usage: claude [options]\\n  --model <model>  Model\\n";;\n  *) echo "unexpected: $*" >&2; exit 3;;\nesac\n');
    chmodSync(old, 0o755);
    const home = mkdtempSync(join(tmpdir(), 'tether-adopt-'));
    defer(() => rmSync(home, { recursive: true, force: true }));
    const refused = await runTether({ args: ['adopt', 'f35b2b97'], env: { TETHER_HOME: home, TETHER_CLAUDE_BIN: old } });
    expect(refused.code).toBe(127);
    expect(refused.stderr).toContain('claude 2.0.1 has no background sessions (its --help lists no --bg and the agents command)');
  }, 30_000);
});
