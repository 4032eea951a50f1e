// remote-sessions.test.ts: a resumed session's start against a real hub, with a daemon and runners
// played by socket.io clients, so the order of their reports is the test's to choose.
//
// End acks once the session is ended, while the runner process is still on its way out; the daemon
// reports that exit a moment later. A Resume right after End used to take that report for the new
// runner's and fail with the old runner's log ("claude exited with 0"): seen in a CI rehearsal with
// claude 2.1.197, whose runner takes longer to go.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-session-control-', ackTimeoutMs: 10_000 });
const { connect, ack, register } = live;

async function onlineDaemon(): Promise<{ daemon: Socket; machineId: string }> {
  const machineId = randomUUID();
  const daemon = await connect({ nsp: '/cli', client: 'daemon' });
  expect((await ack(daemon, 'machine:register', { id: machineId, name: 'box', os: 'linux', user: 'dev', home: '/home/dev' })).ok).toBe(true);
  return { daemon, machineId };
}

it("a resume is not failed by the previous runner's exit report arriving while it starts", async () => {
  const { daemon, machineId } = await onlineDaemon();
  // Each spawn: a runner registers and is ready (idle). Before acking the second spawn, the daemon
  // reports the first runner's exit, as a real daemon does when that runner goes during the resume.
  let spawns = 0;
  const runners: Array<Promise<void>> = [];
  const runnerSockets: Socket[] = [];
  const startRunner = async (spawn: { sessionId: string; cwd: string; launchKind: 'pty' | 'headless' }, reply: (a: unknown) => void) => {
    spawns += 1;
    const pid = 1000 + spawns;
    if (spawns === 2) {
      expect((await ack(daemon, 'runner:exited', { sessionId: spawn.sessionId, pid: 1001, exitCode: 0, signal: null, reason: 'claude exited with 0' })).ok).toBe(true);
    }
    reply({ ok: true, pid, cwd: spawn.cwd, logFile: `/tmp/session-${spawn.sessionId}.log` });
    const runner = await connect({ nsp: '/cli' });
    runnerSockets.push(runner);
    await register(runner, { id: spawn.sessionId, machineId, cwd: spawn.cwd, launchKind: spawn.launchKind, agentSessionId: 'c1a0de00-0000-4000-8000-000000000001' });
    await ack(runner, 'session:update', { sessionId: spawn.sessionId, patch: { status: 'idle' } });
  };
  // Each runner's acks are awaited before the test ends (its sockets close after it).
  daemon.on('daemon:spawn', (spawn: Parameters<typeof startRunner>[0], reply: (a: unknown) => void) => void runners.push(startRunner(spawn, reply)));

  const phone = await connect({ nsp: '/web' });
  const spawned = await ack(phone, 'session:spawn', { machineId, cwd: '/home/dev/app', launchKind: 'pty' }, { timeoutMs: 30_000 });
  expect(spawned.ok).toBe(true);
  const sessionId = (spawned.session as { id: string }).id;
  // The first runner ends its session (End); its process has not gone yet.
  const [firstRunner] = runnerSockets;
  expect((await ack(firstRunner!, 'session:end', { sessionId, status: 'ended', exitCode: 0, reason: null })).ok).toBe(true);

  const resumed = await ack(phone, 'session:resume', { sessionId }, { timeoutMs: 30_000 });
  expect(resumed.error).toBeUndefined();
  expect(resumed.ok).toBe(true);
  expect(resumed.session).toMatchObject({ id: sessionId, status: 'idle' });
  expect(spawns).toBe(2);
  await Promise.all(runners);
});

it('refuses a resume id that is not a UUID at the edge: the daemon is never asked, nor does a runner get to report one', async () => {
  const { daemon, machineId } = await onlineDaemon();
  let asked = 0;
  daemon.on('daemon:spawn', (_spawn: unknown, reply: (a: unknown) => void) => {
    asked += 1;
    reply({ ok: false, code: 'internal', error: 'not in this test' });
  });
  const phone = await connect({ nsp: '/web' });
  for (const id of ['--dangerously-skip-permissions', '-r', 'abc']) {
    const refused = await ack(phone, 'session:spawn', { machineId, cwd: '/home/dev/app', launchKind: 'pty', resumeAgentSessionId: id });
    expect(refused, id).toMatchObject({ ok: false, code: 'bad_request' });
    expect(String(refused.error)).toContain('resumeAgentSessionId');
  }
  expect(asked).toBe(0);
  const runner = await connect({ nsp: '/cli' });
  const registered = await register(runner, { id: randomUUID(), machineId, cwd: '/w', agentSessionId: '--dangerously-skip-permissions' });
  expect(registered).toMatchObject({ ok: false, code: 'bad_request' });
});

it("turns a daemon's spawn ack that does not fit its schema into a clear spawn failure, and the hub goes on", async () => {
  const { daemon, machineId } = await onlineDaemon();
  const acks: unknown[] = [{ ok: true, pid: 4242 }, { ok: true, pid: -1, cwd: '/w', logFile: '/l' }, { ok: true, pid: 1, cwd: 7, logFile: '/l' }, { ok: false }, 'yes', null];
  const sent: unknown[] = [];
  daemon.on('daemon:spawn', (_spawn: unknown, reply: (a: unknown) => void) => {
    const next = acks[sent.length];
    sent.push(next);
    reply(next);
  });
  const phone = await connect({ nsp: '/web' });
  for (const bad of acks) {
    const failed = await ack(phone, 'session:spawn', { machineId, cwd: '/home/dev/app', launchKind: 'pty' }, { timeoutMs: 20_000 });
    expect(failed, JSON.stringify(bad)).toMatchObject({ ok: false, code: 'internal', reason: 'runner_failed' });
    expect(String(failed.error), JSON.stringify(bad)).toMatch(/the daemon sent a bad answer to daemon:spawn/);
  }
  expect(sent).toEqual(acks);
  // Nothing was left half-started, and the hub still answers.
  const list = (await (await fetch(`${live.hub.url}/api/sessions`, { headers: { authorization: `Bearer ${live.accessToken}` } })).json()) as { sessions: unknown[] };
  expect(list.sessions).toEqual([]);
});

it("stops an adopted session in its agent's pool only where its runner says it can; the runner hears which end", async () => {
  const phone = await connect({ nsp: '/web' });
  const adopted = { backgroundId: 'f35b2b97', note: 'adopted: no hook approvals' };
  const ends: Array<Promise<unknown>> = [];
  const session = async (capabilities: Record<string, unknown> | null) => {
    const runner = await connect({ nsp: '/cli' });
    const id = randomUUID();
    await register(runner, { id, cwd: '/w', launchKind: 'pty', status: 'idle', ...(capabilities ? { capabilities } : {}) });
    const stops: unknown[] = [];
    runner.on('session:stop', (stop: unknown) => {
      stops.push(stop);
      ends.push(ack(runner, 'session:end', { sessionId: id, status: 'ended', exitCode: 0, reason: null }));
    });
    return { id, stops };
  };
  // Any agent's shape will do: the hub decides from `adopted`, never from the name.
  const none = { switchableIn: [] };
  const base = { displayName: 'Pooled', models: { offered: [], typed: false, example: null, ...none }, effort: { levels: [], ...none }, modes: { values: [], ...none }, resumeCommand: 'pooled --resume {id}', relays: { requests: ['dialog'], editedInput: false, sessionRules: false } };
  // A session tether started: nothing of an agent's pool to stop.
  const plain = await session(base);
  expect(await ack(phone, 'session:stop', { sessionId: plain.id, stopInPool: true })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('End stops it') });
  // An older runner of an adopted session only detaches: it is told to stop it at the desk.
  const older = await session({ ...base, adopted });
  expect(await ack(phone, 'session:stop', { sessionId: older.id, stopInPool: true })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('tether adopt f35b2b97 --stop') });
  expect([...plain.stops, ...older.stops]).toEqual([]);
  // One whose runner can: the runner hears stopInPool; a plain End (Detach) carries none.
  const able = await session({ ...base, adopted: { ...adopted, stop: true } });
  expect(await ack(phone, 'session:stop', { sessionId: able.id, stopInPool: true }, { timeoutMs: 15_000 })).toMatchObject({ ok: true });
  expect(able.stops).toEqual([{ sessionId: able.id, stopInPool: true }]);
  const detached = await session({ ...base, adopted: { ...adopted, stop: true } });
  expect(await ack(phone, 'session:stop', { sessionId: detached.id }, { timeoutMs: 15_000 })).toMatchObject({ ok: true });
  expect(detached.stops).toEqual([{ sessionId: detached.id }]);
  await Promise.all(ends);
});
