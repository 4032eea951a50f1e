// session-lifecycle.test.ts: End and Resume of sessions started from the phone, PTY and headless
// (real hub + `tether daemon` + real claude against the fake API). End = the phone's session:stop:
// claude leaves through its own exit path (exit code 0, the session `ended`, its final screen kept
// with claude's resume hint, the chat kept). Resume = the phone's session:resume or `tether resume`:
// the same tether session goes live again on its machine's daemon with the same claude session id,
// and the chat continues in the same transcript, nothing duplicated. Another namespace gets
// not_found for both; `tether attach` on an ended session names `tether resume`.
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { SPAWN_ACK_MS, spawnVia, type SpawnAck } from '../harness/daemon.ts';
import { chatText } from '../harness/runner.ts';
import { finalScreen, viewTerminal } from '../harness/terminal.ts';
import { connectPhone, DESK_READY, startDaemonWorld, startStage, type DaemonWorld } from '../harness/world.ts';
import { runTether } from '../harness/tether-cli.ts';

const defer = useCleanups();
const STOP_ACK_MS = 30_000;

/** `tether …` as a user types it, against the world's hub (async: the hub lives in this process). */
async function tether(world: DaemonWorld, ...args: string[]) {
  const env = { ...world.sandbox.env, TETHER_HOME: world.daemon.home, TETHER_HUB_URL: world.hub.url, TETHER_TOKEN: world.hub.token };
  const run = await runTether({ args, env, cwd: world.sandbox.cwd });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe('session lifecycle from the phone and the shell', () => {
  it('PTY: End stops claude cleanly and keeps chat and final screen; Resume brings the same session back live', async () => {
    const world = await startDaemonWorld(defer, { script: [text('pty first answer'), text('pty resumed answer')] });
    const { hub, sandbox, daemon, phone, startWatch } = world;
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'pty' });
    expect(spawned.error).toBeUndefined();
    const sessionId = spawned.session!.id;
    const watch = await startWatch(sessionId);
    await watch.send('pty first question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'pty first answer'), { what: 'first answer', timeoutMs: 30_000 });
    const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'claude session id' });
    await watch.waitFor(() => watch.session()?.status === 'idle' || null, { what: 'idle after the turn' });

    const asked = Date.now();
    const ended = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS);
    console.log(`[lifecycle] PTY End acked (session ended) in ${Date.now() - asked} ms`);
    expect(ended.ok).toBe(true);
    if (!ended.ok) return;
    expect(ended.session).toMatchObject({ id: sessionId, status: 'ended', exitCode: 0, failureReason: null });
    const screen = await finalScreen(hub, sessionId);
    console.log(`final screen after End:\n${screen}`);
    expect(screen).toContain(`claude --resume ${agentSessionId}`);
    expect(watch.messages().map(chatText).filter((t) => t)).toEqual(['pty first question', 'pty first answer']);

    const resuming = Date.now();
    const resumed = (await emitAck(phone, 'session:resume', { sessionId }, SPAWN_ACK_MS)) as SpawnAck;
    console.log(`[lifecycle] PTY Resume acked (claude ready) in ${Date.now() - resuming} ms`);
    expect(resumed.error).toBeUndefined();
    expect(resumed.session).toMatchObject({ id: sessionId, status: 'idle', launchKind: 'pty', agentSessionId });
    await watch.send('pty second question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'pty resumed answer'), { what: 'resumed answer', timeoutMs: 30_000 });
    expect(watch.messages().map(chatText).filter((t) => t)).toEqual(['pty first question', 'pty first answer', 'pty second question', 'pty resumed answer']);
    expect(watch.duplicates()).toBe(0);
    expect(sandbox.transcripts()).toHaveLength(1);
    expect(watch.session()?.agentSessionId).toBe(agentSessionId);

    const again = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS);
    expect(again.ok && again.session.status).toBe('ended');
  });

  it('headless: End closes claude cleanly; tether resume continues it headless, then --pty hands it to a TUI; same chat throughout', async () => {
    const world = await startDaemonWorld(defer, { script: [text('headless first answer'), text('headless resumed answer'), text('pty after headless answer')] });
    const { sandbox, daemon, phone, startWatch } = world;
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd });
    expect(spawned.error).toBeUndefined();
    const sessionId = spawned.session!.id;
    const watch = await startWatch(sessionId);
    await watch.send('headless first question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'headless first answer'), { what: 'first answer', timeoutMs: 30_000 });
    const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'claude session id' });
    await watch.waitFor(() => watch.session()?.status === 'idle' || null, { what: 'idle after the turn' });

    const live = await tether(world, 'resume', sessionId);
    expect(live.status).not.toBe(0);
    expect(live.stderr).toContain('session_live');

    const asked = Date.now();
    const ended = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS);
    console.log(`[lifecycle] headless End acked (session ended) in ${Date.now() - asked} ms`);
    expect(ended.ok).toBe(true);
    if (!ended.ok) return;
    expect(ended.session).toMatchObject({ id: sessionId, status: 'ended', exitCode: 0, failureReason: null });
    // attach on an ended session points at the verb that exists.
    const attach = await tether(world, 'attach', sessionId);
    expect(attach.status).not.toBe(0);
    expect(attach.stderr).toContain(`has ended; resume it with tether resume ${sessionId} (or Resume on the phone)`);

    const resumed = await tether(world, 'resume', sessionId, '--json');
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ ok: true, sessionId, launchKind: 'headless', status: 'idle', agentSessionId });
    await watch.send('headless second question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'headless resumed answer'), { what: 'resumed answer', timeoutMs: 30_000 });
    await watch.waitFor(() => watch.session()?.status === 'idle' || null, { what: 'idle after the resumed turn' });

    const stopped = await tether(world, 'stop', sessionId);
    expect(stopped.status).toBe(0);
    expect(stopped.stdout).toContain(`stopped ${sessionId} (ended)`);
    const inPty = await tether(world, 'resume', sessionId, '--pty');
    expect(inPty.stderr).toBe('');
    expect(inPty.stdout).toContain(`resumed ${sessionId} (pty, idle)`);
    await watch.send('third question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'pty after headless answer'), { what: 'answer in the PTY', timeoutMs: 30_000 });
    expect(watch.messages().map(chatText).filter((t) => t)).toEqual([
      'headless first question',
      'headless first answer',
      'headless second question',
      'headless resumed answer',
      'third question',
      'pty after headless answer',
    ]);
    expect(watch.duplicates()).toBe(0);
    expect(sandbox.transcripts()).toHaveLength(1);
    expect(watch.session()).toMatchObject({ launchKind: 'pty', agentSessionId });
    const last = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS);
    expect(last.ok && last.session).toMatchObject({ status: 'ended', exitCode: 0 });
  });

  for (const launchKind of ['pty', 'headless'] as const) {
    it(`${launchKind}: End during a turn interrupts it and still exits claude cleanly`, async () => {
      let answered = false;
      // The reply is held until the test ends: the turn is in flight when End comes.
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      defer(() => release());
      const world = await startDaemonWorld(defer, {
        script: [
          async () => {
            await held;
            answered = true;
            return text('too late');
          },
        ],
      });
      const { hub, sandbox, daemon, phone, startWatch } = world;
      const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind });
      expect(spawned.error).toBeUndefined();
      const sessionId = spawned.session!.id;
      const watch = await startWatch(sessionId);
      await watch.send('a long question');
      await watch.waitFor(() => world.fake.requests.some((r) => r.kind === 'main') || null, { what: 'the turn reaching the API', timeoutMs: 30_000 });
      const ended = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS);
      expect(ended.ok).toBe(true);
      if (!ended.ok) return;
      // claude's own exit, not a signal (SIGTERM would be 143). `claude -p` exits with its last
      // turn's outcome, and an interrupted turn is an error result: 1 (measured, 2.1.330).
      expect(ended.session).toMatchObject({ status: 'ended', exitCode: launchKind === 'pty' ? 0 : 1, failureReason: null });
      expect(answered).toBe(false);
      expect(watch.messages().map(chatText)).toContain('a long question');
      if (launchKind === 'pty') {
        const screen = await finalScreen(hub, sessionId);
        console.log(`final screen after End mid-turn:\n${screen}`);
        expect(screen).toContain(`claude --resume ${watch.session()?.agentSessionId}`);
      }
    });
  }

  it('a desk session (tether claude at a terminal) ended from the phone: claude exits 0 at the desk with its resume hint; Resume says to resume there', async () => {
    const { startRunner, startWatch, hub } = await startStage(defer, { script: [text('desk answer')] });
    const desk = startRunner({});
    const watch = await startWatch(desk.sessionId);
    await desk.waitForScreen(DESK_READY);
    await watch.send('desk question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'desk answer'), { what: 'desk answer', timeoutMs: 30_000 });
    const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'claude session id' });
    await watch.waitFor(() => watch.session()?.status === 'idle' || null, { what: 'idle after the turn' });
    const phone = await connectPhone(defer, hub);
    const ended = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId: desk.sessionId }, STOP_ACK_MS);
    expect(ended.ok && ended.session).toMatchObject({ status: 'ended', exitCode: 0, machineId: null });
    expect(await desk.exited).toBe(0);
    await desk.waitForScreen(`claude --resume ${agentSessionId}`);
    const resume = (await emitAck(phone, 'session:resume', { sessionId: desk.sessionId }, SPAWN_ACK_MS)) as SpawnAck;
    expect(resume).toMatchObject({ ok: false, reason: 'not_resumable' });
    expect(resume.error).toContain(`tether claude --resume ${agentSessionId}`);
  });

  it('another namespace can neither End nor Resume the session: it answers as for a missing one', async () => {
    const world = await startDaemonWorld(defer, { script: [text('still here')] });
    const { hub, sandbox, daemon, phone, startWatch } = world;
    const spawned = await spawnVia(phone, { machineId: daemon.machineId(), cwd: sandbox.cwd });
    expect(spawned.error).toBeUndefined();
    const sessionId = spawned.session!.id;
    const stranger = await connectPhone(defer, { url: hub.url, token: await hub.createToken('stranger') });
    const missing = await emitAck(stranger, 'session:stop', { sessionId: crypto.randomUUID() }, STOP_ACK_MS);
    expect(await emitAck(stranger, 'session:stop', { sessionId }, STOP_ACK_MS)).toEqual(missing);
    expect(missing).toMatchObject({ ok: false, code: 'not_found' });
    const watch = await startWatch(sessionId);
    await watch.send('are you there');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'still here'), { what: 'the reply of a session that was not stopped', timeoutMs: 30_000 });

    expect((await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, STOP_ACK_MS)).ok).toBe(true);
    const foreignResume = (await emitAck(stranger, 'session:resume', { sessionId }, SPAWN_ACK_MS)) as SpawnAck;
    expect(foreignResume).toMatchObject({ ok: false, code: 'not_found' });
    expect(daemon.output().match(/started (pty|headless) session/g)).toHaveLength(1);
    expect((await hub.store.getSession({ namespace: hub.namespace, sessionId }))?.status).toBe('ended');
  });

  it('tether resume: --help, a bad id and an unknown session are clear errors', async () => {
    const world = await startDaemonWorld(defer);
    const help = await tether(world, 'resume', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: tether resume <session> [--pty] [--fork] [--json]');
    const bad = await tether(world, 'resume', 'nope');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('is not a session id');
    const unknown = await tether(world, 'resume', crypto.randomUUID());
    expect(unknown.status).not.toBe(0);
    expect(unknown.stderr).toContain('no such session');
    const listed = await tether(world, '--help');
    expect(listed.stdout).toMatch(/\n  resume\s+resume an ended session/);
  });
});
