// worktrees.test.ts: the hub's worktree room against a real hub, the daemon and runners played by
// socket.io clients: the spawn's worktree is stored from the daemon's ack (never from a runner),
// inspect and remove name only the session's recorded worktree and pass the daemon that path and
// repository, another namespace's session is `not_found`, a live one is not removed, a session
// without a worktree and an offline machine are told apart, and what the daemon sends back is checked;
// the confirmation (a loss digest) goes to the daemon as is, and a daemon older than the ignored-file
// check (no digest in its answer) removes nothing.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-worktrees-', ackTimeoutMs: 10_000 });
const { connect, ack, register, token } = live;
const REPO = '/home/dev/app';
const PATH = '/home/dev/app.worktrees/fix';
/** Where the daemon says the branch started (recorded for the Changes view's whole-branch diff). */
const BASE = { ref: 'main', commit: '0123456789abcdef0123' };

/** What the daemon says removing would lose: an uncommitted file, an ignored `.env`, a node_modules. */
const DIGEST = 'ab'.repeat(32);
const LOSS = {
  uncommitted: ['a.txt'],
  unpushed: [],
  ignored: [{ path: '.env', bytes: 20, files: 1, atLeast: false }],
  ignoredMore: 0,
  rebuildable: [{ path: 'node_modules/', bytes: 5_000_000, files: 900, atLeast: true }],
  rebuildableMore: 0,
  digest: DIGEST,
};

type Heard = Array<[string, unknown]>;

async function machineWithWorktreeSession(): Promise<{ daemon: Socket; machineId: string; sessionId: string; runner: Socket; heard: Heard }> {
  const machineId = randomUUID();
  const daemon = await connect({ nsp: '/cli', client: 'daemon' });
  expect((await ack(daemon, 'machine:register', { id: machineId, name: 'box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
  const heard: Heard = [];
  let runner: Socket | null = null;
  let started: Promise<void> = Promise.resolve();
  daemon.on('daemon:spawn', (spawn: { sessionId: string; cwd: string; worktree: { branch: string } | null }, reply: (a: unknown) => void) => {
    heard.push(['spawn', spawn]);
    reply({ ok: true, pid: 77, cwd: PATH, logFile: '/tmp/l', worktree: { path: PATH, branch: spawn.worktree!.branch, repo: spawn.cwd, removedAt: null, base: BASE } });
    started = (async () => {
      runner = await connect({ nsp: '/cli' });
      await register(runner, { id: spawn.sessionId, machineId, cwd: PATH, launchKind: 'headless' });
      await ack(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
    })();
  });
  for (const name of ['inspect', 'remove'] as const) {
    daemon.on(`daemon:worktree-${name}`, (p: { path: string; confirm?: unknown }, reply: (a: unknown) => void) => {
      heard.push([name, p]);
      reply(name === 'inspect' ? { ok: true, ...LOSS } : { ok: true, removed: p.path, lost: LOSS });
    });
  }
  const phone = await connect({ nsp: '/web' });
  const spawned = await ack(phone, 'session:spawn', { machineId, cwd: REPO, worktree: { branch: 'fix' } }, { timeoutMs: 30_000 });
  expect(spawned.ok).toBe(true);
  await started;
  const session = spawned.session as { id: string; worktree: unknown };
  expect(session.worktree).toEqual({ path: PATH, branch: 'fix', repo: REPO, removedAt: null, base: BASE });
  return { daemon, machineId, sessionId: session.id, runner: runner!, heard };
}

it("keeps the spawn's worktree through the runner's own registration, and acts only on it, in the caller's namespace", async () => {
  const { machineId, sessionId, runner, heard } = await machineWithWorktreeSession();
  const phone = await connect({ nsp: '/web' });
  // A runner's re-registration (after a reconnect) does not touch it.
  await register(runner, { id: sessionId, machineId, cwd: PATH, launchKind: 'headless', status: 'idle' });
  const watched = await ack(phone, 'session:watch', { sessionId });
  expect(watched.session).toMatchObject({ worktree: { path: PATH, repo: REPO } });

  // Another namespace: like a missing session.
  const stranger = await connect({ nsp: '/web', token: await token('other') });
  for (const event of ['worktree:inspect', 'worktree:remove']) expect(await ack(stranger, event, { sessionId })).toMatchObject({ ok: false, code: 'not_found' });
  // Live: inspected, never removed.
  // The daemon's whole answer reaches the phone: ignored files, rebuildable folders, the digest.
  expect(await ack(phone, 'worktree:inspect', { sessionId })).toEqual({ ok: true, worktree: { path: PATH, branch: 'fix', repo: REPO, removedAt: null, base: BASE }, loss: LOSS });
  expect(await ack(phone, 'worktree:remove', { sessionId, confirm: DIGEST })).toMatchObject({ ok: false, code: 'conflict' });
  // A path from the phone is no part of the request, and a confirmation is a yes or a digest.
  expect(await ack(phone, 'worktree:remove', { sessionId, confirm: true, path: '/' })).toMatchObject({ ok: false, code: 'bad_request' });
  expect(await ack(phone, 'worktree:remove', { sessionId, confirm: 'yes please' })).toMatchObject({ ok: false, code: 'bad_request' });
  expect(heard.filter(([kind]) => kind === 'remove')).toEqual([]);

  await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null });
  const removed = await ack(phone, 'worktree:remove', { sessionId, confirm: DIGEST });
  expect(removed).toMatchObject({ ok: true, lost: { uncommitted: ['a.txt'], ignored: [{ path: '.env' }] }, session: { worktree: { removedAt: expect.any(Number) } } });
  // The hub looks first (is the daemon new enough to name ignored files?), the daemon decides.
  expect(heard.filter(([kind]) => kind !== 'spawn')).toEqual([
    ['inspect', { repo: REPO, path: PATH }],
    ['inspect', { repo: REPO, path: PATH, measure: 'loss' }],
    ['remove', { repo: REPO, path: PATH, confirm: DIGEST }],
  ]);
  expect(await ack(phone, 'worktree:inspect', { sessionId })).toMatchObject({ ok: false, code: 'gone' });
});

it('tells a session without a worktree, an offline machine and a bad daemon answer apart', async () => {
  const { daemon, machineId, sessionId, runner } = await machineWithWorktreeSession();
  const phone = await connect({ nsp: '/web' });
  const plain = await connect({ nsp: '/cli' });
  const plainId = randomUUID();
  await register(plain, { id: plainId, machineId, cwd: REPO, launchKind: 'headless' });
  expect(await ack(phone, 'worktree:inspect', { sessionId: plainId })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('does not run in a worktree') });

  daemon.on('daemon:worktree-probe', (_p: unknown, reply: (a: unknown) => void) => reply({ ok: true, repo: 42 }));
  expect(await ack(phone, 'worktree:probe', { machineId, cwd: REPO })).toMatchObject({ ok: false, code: 'internal', error: expect.stringContaining('bad answer to daemon:worktree-probe') });
  expect(await ack(phone, 'worktree:probe', { machineId: randomUUID(), cwd: REPO })).toMatchObject({ ok: false, reason: 'machine_unknown' });

  await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null });
  daemon.disconnect();
  await expect.poll(async () => ack(phone, 'worktree:inspect', { sessionId }), { timeout: 5_000 }).toMatchObject({ ok: false, reason: 'machine_offline' });
  expect(await ack(phone, 'worktree:remove', { sessionId, confirm: false })).toMatchObject({ ok: false, reason: 'machine_offline' });
  // Archive does not wait for the machine.
  expect(await ack(phone, 'session:archive', { sessionId, archived: true })).toMatchObject({ ok: true });
});

it('removes nothing through a daemon older than the ignored-file check (its answer has no digest)', async () => {
  const { daemon, sessionId, runner, heard } = await machineWithWorktreeSession();
  const phone = await connect({ nsp: '/web' });
  await ack(runner, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null });
  // Such a daemon answers the old shape: uncommitted and unpushed only.
  daemon.removeAllListeners('daemon:worktree-inspect');
  daemon.on('daemon:worktree-inspect', (p: unknown, reply: (a: unknown) => void) => {
    heard.push(['inspect', p]);
    reply({ ok: true, uncommitted: [], unpushed: [] });
  });
  expect(await ack(phone, 'worktree:inspect', { sessionId })).toMatchObject({ ok: true, loss: { uncommitted: [], unpushed: [], ignored: [], digest: null } });
  for (const confirm of [false, true]) {
    expect(await ack(phone, 'worktree:remove', { sessionId, confirm })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('older than the check for files git ignores') });
  }
  expect(heard.filter(([kind]) => kind === 'remove')).toEqual([]);
  expect(await ack(phone, 'session:archive', { sessionId, archived: true })).toMatchObject({ ok: true });
});

it('fails closed with a daemon older than worktrees: its runner in the repository itself is killed, and the person told why', async () => {
  const machineId = randomUUID();
  const daemon = await connect({ nsp: '/cli', client: 'daemon' });
  expect((await ack(daemon, 'machine:register', { id: machineId, name: 'old-box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
  const kills: unknown[] = [];
  // An older daemon: the spawn's worktree is dropped, the runner starts in the folder asked for.
  daemon.on('daemon:spawn', (spawn: { cwd: string }, reply: (a: unknown) => void) => reply({ ok: true, pid: 78, cwd: spawn.cwd, logFile: '/tmp/l' }));
  daemon.on('daemon:kill', (p: unknown, reply: (a: unknown) => void) => {
    kills.push(p);
    reply({ ok: true, killed: true });
  });
  const phone = await connect({ nsp: '/web' });
  const spawned = await ack(phone, 'session:spawn', { machineId, cwd: REPO, worktree: { branch: 'fix' } }, { timeoutMs: 30_000 });
  expect(spawned).toMatchObject({ ok: false, code: 'conflict', reason: 'worktree_failed', error: expect.stringContaining('older than worktrees') });
  await expect.poll(() => kills.length, { timeout: 5_000 }).toBe(1);
});
