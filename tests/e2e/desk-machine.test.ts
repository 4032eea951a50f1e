// desk-machine.test.ts: a desk session belongs to its machine (issue 40, first part). `tether claude`
// at the desk of a machine whose `tether daemon` runs (same TETHER_HOME) names that machine, proved by
// the machine's secret; so once it ends the phone resumes it through the daemon, as it does a session
// the daemon spawned. A claim nobody vouched for (no proof, a wrong one, an unknown machine) is dropped:
// the session registers as a desk session. A resume carries the folders the desk gave claude
// (`--add-dir`), or is refused naming one that is gone. Real hub, daemon, runner and claude against the fake API.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { DialogInputSchema, type Review, type Session } from '@tether/shared';
import type { Socket } from 'socket.io-client';
import { lastUserText, text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { git } from '../../cli/src/testing/git-repo.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { quitWithCtrlC } from '../harness/desk.ts';
import { chatText, type SessionWatch } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE, startDaemonWorld } from '../harness/world.ts';

const defer = useCleanups();
type ControlAck = { ok: boolean; session?: Session; code?: string; reason?: string; error?: string };

it('a desk tether claude on a machine with a daemon names that machine, and once ended is resumed from the hub through the daemon', async () => {
  const world = await startDaemonWorld(defer, { script: [text('desk answer'), text('resumed answer')] });
  const { daemon, phone } = world;
  // The desk, in the daemon's TETHER_HOME: the machine's id and secret are this user's files.
  // With a folder beyond its own (`--add-dir`): the session records it, and the resume gives it again.
  const extra = realpathSync(mkdtempSync(join(tmpdir(), 'tether-added-dir-')));
  defer(() => rmSync(extra, { recursive: true, force: true }));
  const desk = world.startRunner({ home: daemon.home, args: [...MANUAL_MODE, '--add-dir', extra] });
  const watch = await world.startWatch(desk.sessionId);
  // claude 2.1.332 asks before it works in a folder it was not trusted with ("Adding a new
  // directory"): a dialog the phone answers. 2.1.197 does not ask: its input box comes up instead.
  let asked: 'asked' | 'ready' | null = null;
  for (const deadline = Date.now() + 60_000; asked === null && Date.now() < deadline; await Bun.sleep(100)) {
    asked = folderAsked({ watch, extra }) ? 'asked' : DESK_READY.test(desk.screenText()) ? 'ready' : null;
  }
  expect(asked, 'the added folder asked on the phone, or claude ready').not.toBeNull();
  if (asked === 'asked') await addFolderOnThePhone({ phone, watch, extra });
  await desk.waitForScreen(DESK_READY);
  expect(watch.session()).toMatchObject({ id: desk.sessionId, machineId: daemon.machineId(), addedDirs: [extra] });

  await watch.send('a question at the desk');
  await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'desk answer'), { what: 'the desk answer' });
  const agentSessionId = await watch.waitFor(() => watch.session()?.agentSessionId, { what: "claude's session id" });
  expect(await quitWithCtrlC(desk)).toBe(0);
  await watch.waitFor(() => (watch.session()?.status === 'ended' ? true : null), { what: 'the desk session ended' });

  // Resumed from the phone: the machine's daemon starts it again, same chat, same claude session.
  const resumed = (await emitAck(phone, 'session:resume', { sessionId: desk.sessionId }, 60_000)) as ControlAck;
  expect(resumed.error).toBeUndefined();
  // As it ran: in claude's TUI, now in a PTY of the daemon's (`--pty` or not is the phone's choice).
  // claude's answer about a folder holds for one process: the resumed one asks again, on the phone
  // (where claude asks at all: as at the desk above).
  expect(resumed.session).toMatchObject({ id: desk.sessionId, machineId: daemon.machineId(), launchKind: 'pty', pendingCount: asked === 'asked' ? 1 : 0, addedDirs: [extra] });
  if (asked === 'asked') await addFolderOnThePhone({ phone, watch, extra });
  await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'the resumed session ready once the folder is added', timeoutMs: 30_000 });
  await watch.send('and from the phone');
  await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'resumed answer'), { what: 'the resumed answer' });
  expect(watch.session()?.agentSessionId).toBe(agentSessionId);
  expect(watch.messages().map(chatText).filter(Boolean)).toEqual(['a question at the desk', 'desk answer', 'and from the phone', 'resumed answer']);
  // claude names its added folders in the environment block of its system prompt: at the desk, and
  // again in the resumed claude the daemon started.
  for (const asked of ['a question at the desk', 'and from the phone']) {
    const request = await world.fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastUserText(r.body).includes(asked), { timeoutMs: 10_000 });
    expect(JSON.stringify(request.body), asked).toContain(JSON.stringify(`Additional working directories:\n  - ${extra}\n`).slice(1, -1));
  }
  expect(watch.session()?.addedDirs).toEqual([extra]);
  expect((await emitAck(phone, 'session:stop', { sessionId: desk.sessionId }, 30_000)).ok).toBe(true);

  // A folder that is gone by the next resume is not silently left out: the daemon refuses, naming it.
  rmSync(extra, { recursive: true, force: true });
  const refused = (await emitAck(phone, 'session:resume', { sessionId: desk.sessionId }, 60_000)) as ControlAck;
  expect(refused).toMatchObject({ ok: false, reason: 'dir_missing' });
  expect(refused.error).toContain(extra);
  expect(watch.session()).toMatchObject({ status: 'ended', addedDirs: [extra] });
}, 180_000);

it('a desk tether claude on a machine with a daemon is reviewed from the phone: the reviewer runs on that machine, reads the desk\'s change', async () => {
  const FINDINGS = 'notes.txt now says phone; nothing else changed.';
  const world = await startDaemonWorld(defer, {
    script: [when(userSays('a question at the desk'), text('desk answer')), when(userSays('diff --git'), text(FINDINGS))],
  });
  const { daemon, phone, sandbox } = world;
  git(sandbox.cwd, 'init', '-q');
  writeFileSync(join(sandbox.cwd, 'notes.txt'), 'desk\n');
  git(sandbox.cwd, 'add', '-A');
  git(sandbox.cwd, 'commit', '-q', '-m', 'first');
  writeFileSync(join(sandbox.cwd, 'notes.txt'), 'phone\n');

  const desk = world.startRunner({ home: daemon.home });
  const watch = await world.startWatch(desk.sessionId);
  await desk.waitForScreen(DESK_READY);
  await watch.send('a question at the desk');
  await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'desk answer'), { what: 'the desk answer' });

  // Before the daemon vouched for desks this was refused: "this session names no machine".
  const started = (await emitAck(phone, 'review:start', { sessionId: desk.sessionId, agent: 'claude' }, 60_000)) as { ok: boolean; review?: Review; session?: Session; error?: string };
  expect(started.error).toBeUndefined();
  expect(started.session).toMatchObject({ parentId: desk.sessionId, agent: 'claude', machineId: daemon.machineId(), cwd: sandbox.cwd, launchKind: 'headless' });
  const asked = await world.fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastUserText(r.body).includes('diff --git'), { timeoutMs: 60_000 });
  expect(lastUserText(asked.body!)).toContain('-desk\n+phone');
  const reviewId = started.review!.id;
  let card: Review | undefined;
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && card?.state !== 'answered'; await Bun.sleep(300)) {
    const listed = (await emitAck(phone, 'review:list', { sessionId: desk.sessionId })) as { ok: boolean; reviews?: Review[] };
    card = listed.reviews?.find((r) => r.id === reviewId);
  }
  expect(card).toMatchObject({ id: reviewId, parentId: desk.sessionId, state: 'answered', finalAnswer: FINDINGS });
  expect((await emitAck(phone, 'review:end', { reviewId }, 30_000)).ok).toBe(true);
  expect(await quitWithCtrlC(desk)).toBe(0);
}, 180_000);

/** claude's "Adding a new directory" dialog on the phone, not answered yet. */
function folderAsked(o: { watch: SessionWatch; extra: string }) {
  const answered = new Set(o.watch.resolved.map((r) => r.requestId));
  return o.watch.requested.find((r) => r.kind === 'dialog' && !answered.has(r.id) && JSON.stringify(r.toolInput).includes(o.extra)) ?? null;
}

/** claude's "Adding a new directory" dialog, relayed to the phone, answered "Yes, add it" there. */
async function addFolderOnThePhone(o: { phone: Socket; watch: SessionWatch; extra: string }): Promise<void> {
  const { watch } = o;
  const seen = new Set(watch.resolved.map((r) => r.requestId));
  const request = await watch.waitFor(() => watch.requested.find((r) => r.kind === 'dialog' && !seen.has(r.id) && JSON.stringify(r.toolInput).includes(o.extra)), { what: 'the added folder asked on the phone', timeoutMs: 30_000 });
  const option = DialogInputSchema.parse(request.toolInput).options.find((opt) => /^Yes, add it/.test(opt.label));
  expect(option, JSON.stringify(request.toolInput)).toBeDefined();
  expect((await emitAck(o.phone, 'approval:answer', { requestId: request.id, answer: { decision: 'allow', choice: option!.key } })).ok).toBe(true);
}


it('a machine claim nobody vouched for is dropped: no proof, a wrong one, or a machine the namespace does not have', async () => {
  const world = await startDaemonWorld(defer);
  const { daemon, hub } = world;
  const secret = readFileSync(join(daemon.home, 'machine-secret'), 'utf8').trim();
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const register = async (claim: Record<string, unknown>) => {
    const ack = (await emitAck(runner, 'session:register', { id: randomUUID(), cwd: '/w', launchKind: 'pty', status: 'idle', ...claim })) as ControlAck;
    expect(ack.ok).toBe(true);
    return ack.session!.machineId;
  };
  expect(await register({ machineId: daemon.machineId() })).toBeNull();
  expect(await register({ machineId: daemon.machineId(), machineProof: 'A'.repeat(43) })).toBeNull();
  expect(await register({ machineId: randomUUID(), machineProof: secret })).toBeNull();
  expect(await register({ machineId: daemon.machineId(), machineProof: secret })).toBe(daemon.machineId());
  // Another namespace's runner with the right secret still cannot name this namespace's machine.
  const other = await connectSocket({ url: hub.url, nsp: '/cli', token: await hub.createToken('elsewhere') });
  defer(() => other.close());
  const foreign = (await emitAck(other, 'session:register', { id: randomUUID(), cwd: '/w', launchKind: 'pty', status: 'idle', machineId: daemon.machineId(), machineProof: secret })) as ControlAck;
  expect(foreign.session?.machineId).toBeNull();
  // A malformed proof is refused by the schema, as any bad payload.
  const bad = (await emitAck(runner, 'session:register', { id: randomUUID(), cwd: '/w', launchKind: 'pty', machineId: daemon.machineId(), machineProof: 'x'.repeat(5000) })) as ControlAck;
  expect(bad).toMatchObject({ ok: false, code: 'bad_request' });
}, 60_000);
