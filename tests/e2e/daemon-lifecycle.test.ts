// The daemon restarted (even SIGKILLed) → running sessions survive, the machine re-registers under
// the same id and the session still chats; resume is refused while a live claude owns the session
// and continues the same claude session (same chat, nothing duplicated) once it has ended.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic, text } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { connectSocket, emitAck, nextEvent, startHub } from '../harness/hub.ts';
import { isAlive, startDaemon, stopRunners } from '../harness/daemon.ts';
import { chatText, watchSession } from '../harness/runner.ts';
import type { Machine, Session } from '@tether/shared';

const SPAWN_ACK_MS = 60_000;
type ControlAck = { ok: boolean; session?: Session; code?: string; reason?: string; error?: string };

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups = [];
});

async function world(replies: string[]) {
  const fake = await startFakeAnthropic({ script: replies.map((r) => text(r)) });
  cleanups.push(() => fake.stop());
  const hub = await startHub();
  cleanups.push(() => hub.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  cleanups.push(() => sandbox.stop());
  const phone = await connectSocket({ url: hub.url, nsp: '/web', token: hub.token, device: 'test phone' });
  cleanups.push(() => phone.close());
  return { fake, hub, sandbox, phone };
}

describe('tether daemon: restarts and resume', () => {
  it('runners survive a daemon SIGKILL; the restarted daemon re-registers and the session still chats', async () => {
    const { hub, sandbox, phone } = await world(['before restart', 'after restart']);
    const first = await startDaemon({ hub, sandbox });
    const home = first.home;
    cleanups.push(() => first.stop());
    const machineId = first.machineId();
    const ack = await emitAck<{ session: Session }>(phone, 'session:spawn', { machineId, cwd: sandbox.cwd }, SPAWN_ACK_MS);
    expect(ack.ok).toBe(true);
    const sessionId = ack.ok ? ack.session.id : '';
    const watch = await watchSession({ hub, sessionId });
    cleanups.push(() => watch.stop());
    await watch.send('one');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'before restart'), { what: 'first reply' });
    const [runnerPid] = first.runnerPids();
    expect(runnerPid).toBeDefined();

    const offline = nextEvent<Machine>(phone, 'machine:updated');
    await first.kill('SIGKILL');
    expect((await offline).online).toBe(false);
    expect(isAlive(runnerPid!)).toBe(true);

    const online = nextEvent<Machine>(phone, 'machine:updated');
    const second = await startDaemon({ hub, sandbox, home });
    cleanups.push(() => second.stop());
    expect(second.machineId()).toBe(machineId);
    expect(await online).toMatchObject({ id: machineId, online: true });
    expect(hub.store.listMachines({ namespace: hub.namespace })).toHaveLength(1);

    await watch.send('two');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'after restart'), { what: 'reply after the restart' });
    expect(watch.session()?.status).not.toBe('ended');
    // The new daemon knows the old daemon's runner: a stop still works end to end.
    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, 30_000);
    expect(stop.ok).toBe(true);
    await second.waitForOutput(new RegExp(`session ${sessionId}: runner exited`));
    expect(isAlive(runnerPid!)).toBe(false);
    await stopRunners([runnerPid!]);
  });

  it('resume is refused while the session is live, then continues the same claude session once ended', async () => {
    const { hub, sandbox, phone } = await world(['first answer', 'resumed answer']);
    const daemon = await startDaemon({ hub, sandbox });
    cleanups.push(() => daemon.stop());
    const machineId = daemon.machineId();
    const spawned = (await emitAck(phone, 'session:spawn', { machineId, cwd: sandbox.cwd }, SPAWN_ACK_MS)) as ControlAck;
    expect(spawned.ok).toBe(true);
    const sessionId = spawned.session!.id;
    const watch = await watchSession({ hub, sessionId });
    cleanups.push(() => watch.stop());
    await watch.send('first question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'first answer'), { what: 'first answer' });
    const claudeSessionId = await watch.waitFor(() => watch.session()?.claudeSessionId, { what: 'claude session id' });

    // The hub refuses: the session is live.
    const live = (await emitAck(phone, 'session:resume', { sessionId }, SPAWN_ACK_MS)) as ControlAck;
    expect(live).toMatchObject({ ok: false, code: 'conflict', reason: 'session_live' });
    // The daemon refuses too: a live claude owns that claude session id (its status file).
    const twin = (await emitAck(phone, 'session:spawn', { machineId, cwd: sandbox.cwd, resumeClaudeSessionId: claudeSessionId }, SPAWN_ACK_MS)) as ControlAck;
    expect(twin).toMatchObject({ ok: false, reason: 'session_live' });
    expect(twin.error).toContain(claudeSessionId);

    const stop = (await emitAck(phone, 'session:stop', { sessionId }, 30_000)) as ControlAck;
    expect(stop.ok).toBe(true);
    const resumed = (await emitAck(phone, 'session:resume', { sessionId }, SPAWN_ACK_MS)) as ControlAck;
    expect(resumed.error).toBeUndefined();
    expect(resumed.session).toMatchObject({ id: sessionId, status: 'idle', launchKind: 'headless' });
    await watch.send('second question');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m) === 'resumed answer'), { what: 'resumed answer' });
    await watch.waitFor(() => watch.session()?.claudeSessionId === claudeSessionId || null, { what: 'same claude session id' });
    const texts = watch.messages().map(chatText).filter((t) => t);
    expect(texts).toEqual(['first question', 'first answer', 'second question', 'resumed answer']);
    expect(watch.duplicates()).toBe(0);
    expect(sandbox.transcripts()).toHaveLength(1);
    await emitAck(phone, 'session:stop', { sessionId }, 30_000);
  });
});
