// Conversations tether did not run (issue 40), with the real claude against the fake Messages API: a
// plain `claude -p` run in the sandbox is found by `tether daemon --outside`, listed per folder at the
// hub, and adopted: a new tether session resumes it with its history (the next request at the fake
// API carries the earlier turns), the chat rebuilt from claude's own transcript. Refused, with nothing
// started and the claim released: another namespace's machine, an unknown id, one still being
// written, a damaged record, a huge one; of two adopts at once one wins.
import { copyFileSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Machine, Session } from '@tether/shared';
import { text } from '../fixtures/fake-anthropic/index.ts';
import { claudeBin } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { startDaemon } from '../harness/daemon.ts';
import { chatText } from '../harness/runner.ts';
import { connectPhone, startStage } from '../harness/world.ts';
import { listFound, runOutsideTether } from '../harness/outside.ts';

const SPAWN_ACK_MS = 60_000;
type AdoptAck = { ok: boolean; session?: Session; code?: string; reason?: string; error?: string };
const defer = useCleanups();

const list = (hub: { url: string }, token: string, machineId: string, q = '') => listFound({ hubUrl: hub.url, token, machineId, q });

/** `claude -p 'past question'` in the sandbox; its transcript and claude session id. */
async function pastClaude(sandbox: { cwd: string; env: Record<string, string>; transcripts(): string[] }) {
  expect(await runOutsideTether({ defer, argv: [claudeBin(), '-p', 'past question'], cwd: sandbox.cwd, env: sandbox.env })).toContain('past answer');
  const transcript = sandbox.transcripts()[0]!;
  return { transcript, agentSessionId: transcript.slice(transcript.lastIndexOf('/') + 1, -'.jsonl'.length) };
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(200);
  }
}

/** A copy of a transcript under another id, its lines naming it; `age` seconds old (0: just written). */
function copyAs(o: { from: string; dir: string; oldId: string; newId: string; ageS: number; damage?: boolean }): string {
  const path = `${o.dir}/${o.newId}.jsonl`;
  let body = readFileSync(o.from, 'utf8').replaceAll(o.oldId, o.newId);
  if (o.damage) body = body.replace('\n', '\n{"type":"user", torn\n');
  writeFileSync(path, body);
  if (o.ageS > 0) utimesSync(path, (Date.now() / 1000) - o.ageS, (Date.now() / 1000) - o.ageS);
  return path;
}

describe('found conversations: claude', () => {
  it('a plain claude -p conversation is listed, refused where it must be, and adopted with its history', { timeout: 180_000 }, async () => {
    const stage = await startStage(defer, { script: [text('past answer'), text('adopted answer')] });
    const { hub, sandbox, fake } = stage;
    const { transcript, agentSessionId } = await pastClaude(sandbox);

    const daemon = await startDaemon({ hub, sandbox, args: ['--outside'] });
    defer(() => daemon.stop());
    const machineId = daemon.machineId();
    const phone = await connectPhone(defer, hub);

    // Listed per folder with its first prompt, once out of the live window (claude just wrote it).
    const listed = await until('the conversation listed, not live', async () => {
      const page = (await list(hub, hub.token, machineId)).body;
      return page.sessions.find((s) => s.agentSessionId === agentSessionId && !s.live);
    });
    expect(listed).toMatchObject({ agent: 'claude', folder: sandbox.cwd, title: 'past question', machineId });
    expect((await list(hub, hub.token, machineId, 'PAST QUEST')).body.total).toBe(1);
    expect((await list(hub, hub.token, machineId, 'answer')).body.total).toBe(0);

    // Another namespace's machine: 404, and its adopt finds nothing.
    const otherToken = await hub.createToken('beta');
    expect((await list(hub, otherToken, machineId)).status).toBe(404);
    const stranger = await connectSocket({ url: hub.url, nsp: '/web', token: otherToken, device: 'stranger' });
    defer(() => stranger.close());
    expect(await emitAck(stranger, 'outside:adopt', { machineId, agentSessionId }, SPAWN_ACK_MS)).toMatchObject({ ok: false, code: 'not_found' });
    expect(await emitAck(phone, 'outside:adopt', { agentSessionId: crypto.randomUUID() }, SPAWN_ACK_MS)).toMatchObject({ ok: false, code: 'not_found' });

    // One still being written, a damaged record, a huge one: refused, nothing started.
    const dir = sandbox.projectDir;
    const growing = crypto.randomUUID();
    copyAs({ from: transcript, dir, oldId: agentSessionId, newId: growing, ageS: 0 });
    const damaged = crypto.randomUUID();
    copyAs({ from: transcript, dir, oldId: agentSessionId, newId: damaged, ageS: 120, damage: true });
    const huge = crypto.randomUUID();
    truncateSync(copyAs({ from: transcript, dir, oldId: agentSessionId, newId: huge, ageS: 0 }), 65 * 1024 * 1024);
    utimesSync(`${dir}/${huge}.jsonl`, Date.now() / 1000 - 120, Date.now() / 1000 - 120);
    await until('the copies listed', async () => {
      const ids = (await list(hub, hub.token, machineId)).body.sessions.map((s) => s.agentSessionId);
      return [growing, damaged, huge].every((id) => ids.includes(id));
    });
    const sessionsBefore = (await hub.store.listSessions({ namespace: hub.namespace })).length;
    expect(await emitAck(phone, 'outside:adopt', { agentSessionId: growing }, SPAWN_ACK_MS)).toMatchObject({ ok: false, code: 'conflict', reason: 'session_live', error: expect.stringContaining('cannot be shared while it runs') });
    expect(await emitAck(phone, 'outside:adopt', { agentSessionId: damaged }, SPAWN_ACK_MS)).toMatchObject({ ok: false, reason: 'not_resumable', error: expect.stringMatching(/line 2 .* is not JSON/) });
    expect(await emitAck(phone, 'outside:adopt', { agentSessionId: huge }, SPAWN_ACK_MS)).toMatchObject({ ok: false, reason: 'not_resumable', error: expect.stringContaining('over the 64 MB') });
    expect((await hub.store.listSessions({ namespace: hub.namespace })).length).toBe(sessionsBefore);
    // Their claims were released: still listed.
    expect((await list(hub, hub.token, machineId)).body.sessions.map((s) => s.agentSessionId)).toEqual(expect.arrayContaining([damaged, huge]));

    // Two adopts at once: one wins, the other is told.
    const second = await connectPhone(defer, hub);
    const [a, b] = (await Promise.all([
      emitAck(phone, 'outside:adopt', { agentSessionId }, SPAWN_ACK_MS),
      emitAck(second, 'outside:adopt', { agentSessionId }, SPAWN_ACK_MS),
    ])) as AdoptAck[];
    const won = [a!, b!].filter((ack) => ack.ok);
    expect(won).toHaveLength(1);
    expect([a!, b!].find((ack) => !ack.ok)).toMatchObject({ code: 'conflict', error: expect.stringContaining('someone else is adopting') });
    const session = won[0]!.session!;
    expect(session).toMatchObject({ agent: 'claude', machineId, cwd: sandbox.cwd, agentSessionId, status: 'idle' });

    // The chat is rebuilt from claude's transcript, and the conversation goes on with its history.
    const watch = await stage.startWatch(session.id);
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'past answer'), { what: 'the earlier answer in the chat' });
    await watch.send('next question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'adopted answer'), { what: 'the adopted session answers' });
    const lastRequest = fake.mainRequests().at(-1)!;
    expect(JSON.stringify(lastRequest.messages)).toContain('past question');
    expect(JSON.stringify(lastRequest.messages)).toContain('past answer');
    // Adopted: no longer listed as found.
    expect((await list(hub, hub.token, machineId)).body.sessions.map((s) => s.agentSessionId)).not.toContain(agentSessionId);
  });
});

describe('forks', () => {
  it('a found conversation and a tether session each fork into a new session with the history; the original transcript is unchanged', { timeout: 180_000 }, async () => {
    const stage = await startStage(defer, { script: [text('past answer'), text('forked answer'), text('fork of a fork'), text('pty fork answer')] });
    const { hub, sandbox, fake } = stage;
    const { transcript, agentSessionId } = await pastClaude(sandbox);
    const original = readFileSync(transcript, 'utf8');

    const daemon = await startDaemon({ hub, sandbox, args: ['--outside'] });
    defer(() => daemon.stop());
    const phone = await connectPhone(defer, hub);
    // Found (a fork need not wait for the live window: it leaves the conversation as it is).
    await until('the conversation listed', async () => (await list(hub, hub.token, daemon.machineId())).body.sessions.find((s) => s.agentSessionId === agentSessionId));
    // Offered at both claude pins: 2.1.197 names the original at the fork's SessionStart and the fork
    // only from its first prompt on (runner/session/hook-events.ts), 2.1.332 names the fork at once.
    const { machines } = (await (await fetch(`${hub.url}/api/machines`, { headers: { authorization: `Bearer ${hub.token}` } })).json()) as { machines: Machine[] };
    expect(machines.find((m) => m.id === daemon.machineId())?.capabilities.claude?.fork).toEqual({ supported: true, reason: null });
    const forked = (await emitAck(phone, 'outside:adopt', { agentSessionId, fork: true }, SPAWN_ACK_MS)) as AdoptAck;
    expect(forked).toMatchObject({ ok: true, session: { agent: 'claude', cwd: sandbox.cwd } });
    const watch = await stage.startWatch(forked.session!.id);
    await watch.send('fork question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'forked answer'), { what: 'the fork answers' });
    expect(JSON.stringify(fake.mainRequests().at(-1)!.messages)).toContain('past question');
    const forkId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: 'the fork’s own claude session' });
    expect(forkId).not.toBe(agentSessionId);
    expect(readFileSync(transcript, 'utf8')).toBe(original);
    // The found one stays listed (a fork claims nothing).
    expect((await list(hub, hub.token, daemon.machineId())).body.sessions.map((s) => s.agentSessionId)).toContain(agentSessionId);

    // A tether session forks too, live: a third session with the whole history; the second goes on as it was.
    const again = (await emitAck(phone, 'session:resume', { sessionId: forked.session!.id, fork: true }, SPAWN_ACK_MS)) as AdoptAck;
    expect(again).toMatchObject({ ok: true });
    expect(again.session!.id).not.toBe(forked.session!.id);
    const third = await stage.startWatch(again.session!.id);
    await third.send('second fork question');
    await third.waitFor(() => third.messages().find((m) => chatText(m) === 'fork of a fork'), { what: 'the fork of the fork answers' });
    const carried = JSON.stringify(fake.mainRequests().at(-1)!.messages);
    expect(carried).toContain('past question');
    expect(carried).toContain('fork question');
    expect(watch.session()?.agentSessionId).toBe(forkId);

    // In a PTY too: the found conversation forks once more, with its history only.
    const pty = (await emitAck(phone, 'outside:adopt', { agentSessionId, fork: true, launchKind: 'pty' }, SPAWN_ACK_MS)) as AdoptAck;
    expect(pty).toMatchObject({ ok: true, session: { launchKind: 'pty' } });
    const ptyWatch = await stage.startWatch(pty.session!.id);
    await ptyWatch.send('pty fork question');
    await ptyWatch.waitFor(() => ptyWatch.messages().find((m) => chatText(m) === 'pty fork answer'), { what: 'the PTY fork answers' });
    const ptyCarried = JSON.stringify(fake.mainRequests().at(-1)!.messages);
    expect(ptyCarried).toContain('past question');
    expect(ptyCarried).not.toContain('second fork question');
    const ptyForkId = await ptyWatch.waitFor(() => ptyWatch.session()?.agentSessionId, { what: 'the PTY fork’s own claude session' });
    expect([agentSessionId, forkId]).not.toContain(ptyForkId);
    expect(readFileSync(transcript, 'utf8')).toBe(original);
  });
});
