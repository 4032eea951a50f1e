// Schedules (issue 42) with real claude against the fake Messages API and hubs whose clock the test
// moves (hub/src/testing/manual-clock.ts), so "20 s ahead" and "every five minutes" take no waiting:
//  - a prompt scheduled 20 s ahead reaches the session at its time and not before; a recurring one
//    runs twice;
//  - a new session's run due while the machine's daemon was stopped runs once after it returns;
//  - two hubs on one PostgreSQL database, both ticking at the same moment, fire a run once;
//  - `tether schedule` makes, lists and removes one, and refuses bad timing in words (exit 2).
import { afterAll, describe, expect, it } from 'vitest';
import type { Schedule, Session } from '@tether/shared';
import { lastUserText, text, type MessagesRequest } from '../fixtures/fake-anthropic/index.ts';
import { manualClock } from '../../hub/src/testing/manual-clock.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { startDaemon } from '../harness/daemon.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';
import { chatText, runTether, startRunner, watchSession } from '../harness/runner.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startFakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { connectPhone, DESK_READY, MANUAL_MODE, startStage } from '../harness/world.ts';

const defer = useCleanups();
/** Every main request answered with what it was asked: the chat shows which prompt arrived. */
const echo = (request: MessagesRequest) => text(`echo: ${lastUserText(request)}`);
const ECHOES = Array.from({ length: 6 }, () => echo);
const FIVE_MINUTES = 300_000;

let postgres: Promise<PostgresHandle> | null = null;
afterAll(async () => {
  if (postgres) await (await postgres).stop();
});

async function schedule(phone: Parameters<typeof emitAck>[0], payload: Record<string, unknown>): Promise<Schedule> {
  const ack = await emitAck<{ schedule: Schedule }>(phone, 'schedule:create', { id: crypto.randomUUID(), ...payload });
  if (!ack.ok) throw new Error(ack.error);
  return ack.schedule;
}
const said = (requests: MessagesRequest[], prompt: string) => requests.filter((r) => lastUserText(r).includes(prompt)).length;
const stored = async (hub: Pick<HubHandle, 'store' | 'namespace'>, id: string) => (await hub.store.listSchedules({ namespace: hub.namespace })).find((s) => s.id === id)!;

describe('schedules with real claude', () => {
  it('a prompt 20 s ahead arrives at its time and not before; a recurring one runs twice', async () => {
    const clock = manualClock();
    const stage = await startStage(defer, { script: ECHOES, hub: { schedules: { clock } } });
    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle' });
    const target = { kind: 'session', sessionId: runner.sessionId };

    const once = await schedule(phone.socket, { target, when: { kind: 'once', at: clock.now() + 20_000 }, prompt: 'scheduled once' });
    await clock.advance(19_000);
    // Not claimed, not queued: the tick at 19 s left it alone.
    expect(await stored(stage.hub, once.id)).toMatchObject({ runs: 0, nextRunAt: once.nextRunAt });
    expect(await stage.hub.store.listPrompts({ namespace: stage.hub.namespace, sessionId: runner.sessionId })).toEqual([]);
    await clock.advance(1_000);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('echo: scheduled once')), { what: 'the scheduled prompt answered', timeoutMs: 45_000 });
    expect(await stored(stage.hub, once.id)).toMatchObject({ runs: 1, nextRunAt: null, lastRun: { outcome: 'sent', missed: false } });

    const recurring = await schedule(phone.socket, { target, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'Europe/Berlin' }, prompt: 'scheduled recurring' });
    for (const n of [1, 2]) {
      await clock.set((await stored(stage.hub, recurring.id)).nextRunAt! + 1_000);
      await phone.waitFor(() => phone.messages().filter((m) => chatText(m).includes('echo: scheduled recurring')).length === n || null, { what: `recurring run ${n}`, timeoutMs: 45_000 });
    }
    await clock.advance(FIVE_MINUTES - 5_000);
    expect(await stored(stage.hub, recurring.id)).toMatchObject({ runs: 2 });
    expect(said(stage.fake.mainRequests(), 'scheduled recurring')).toBe(2);
    expect(said(stage.fake.mainRequests(), 'scheduled once')).toBe(1);
  }, 150_000);

  it("a new session's run missed while the daemon was stopped runs once when it returns", async () => {
    const clock = manualClock();
    const stage = await startStage(defer, { script: ECHOES, hub: { schedules: { clock } } });
    const first = await startDaemon({ hub: stage.hub, sandbox: stage.sandbox });
    const phone = await connectPhone(defer, stage.hub);
    const made = await schedule(phone, {
      target: { kind: 'new', machineId: first.machineId(), cwd: stage.sandbox.cwd, agent: 'claude', launchKind: 'headless' },
      when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' },
      prompt: 'while you were away',
    });
    await first.kill('SIGTERM');
    const offline = async () => !(await stage.hub.store.listMachines({ namespace: stage.hub.namespace }))[0]?.online;
    await expect.poll(offline, { timeout: 10_000 }).toBe(true);
    // Three runs come due while the machine is away: none is claimed.
    await clock.set(made.nextRunAt! + 3 * FIVE_MINUTES - 60_000);
    expect(await stored(stage.hub, made.id)).toMatchObject({ runs: 0, nextRunAt: made.nextRunAt });

    const again = await startDaemon({ hub: stage.hub, sandbox: stage.sandbox, home: first.home });
    defer(() => again.stop());
    await clock.advance(1_000);
    await expect.poll(async () => (await stored(stage.hub, made.id)).lastRun, { timeout: 60_000 }).toMatchObject({ outcome: 'started', missed: true });
    const run = (await stored(stage.hub, made.id)).lastRun!;
    const watch = await watchSession({ hub: stage.hub, sessionId: run.sessionId! });
    defer(() => watch.stop());
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('echo: while you were away')), { what: 'the missed run answered', timeoutMs: 45_000 });
    await clock.advance(60_000);
    const sessions: Session[] = await stage.hub.store.listSessions({ namespace: stage.hub.namespace });
    expect(sessions.filter((s) => s.cwd === stage.sandbox.cwd)).toHaveLength(1);
    expect(await stored(stage.hub, made.id)).toMatchObject({ runs: 1 });
    expect(said(stage.fake.mainRequests(), 'while you were away')).toBe(1);
  }, 150_000);

  it('two hubs on one database, ticking together, fire a run once', async () => {
    postgres ??= startPostgres();
    const databaseUrl = await (await postgres).createDatabase();
    // 10 s before a five-minute mark, always: the once (20 s ahead) then comes due after the
    // recurring one's first run, the case a test started near a mark met by chance.
    const clock = manualClock(Math.ceil(Date.now() / FIVE_MINUTES) * FIVE_MINUTES + FIVE_MINUTES - 10_000);
    const a = await startHub({ databaseUrl, schedules: { clock } });
    defer(() => a.stop());
    const b = await startHub({ databaseUrl, schedules: { clock } });
    defer(() => b.stop());
    const fake = await startFakeAnthropic({ script: ECHOES });
    defer(() => fake.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub: a, sandbox, args: MANUAL_MODE });
    defer(() => runner.stop());
    const watch = await watchSession({ hub: a, sessionId: runner.sessionId });
    defer(() => watch.stop());
    await runner.waitForScreen(DESK_READY);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });

    const phoneOnB = await connectSocket({ url: b.url, nsp: '/web', token: b.token, device: 'phone on B' });
    defer(() => phoneOnB.close());
    const target = { kind: 'session', sessionId: runner.sessionId };
    const once = await schedule(phoneOnB, { target, when: { kind: 'once', at: clock.now() + 20_000 }, prompt: 'fired by one hub' });
    const recurring = await schedule(phoneOnB, { target, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' }, prompt: 'each run by one hub' });
    // Both due in one tick: the later of the two. The next five-minute mark may come before the
    // once's 20 s (a test started within 20 s of one: the once never came due, 1 run in ~14).
    await clock.set(Math.max(once.nextRunAt!, recurring.nextRunAt!) + 1_000);
    await clock.advance(1_000);
    await watch.waitFor(() => watch.messages().filter((m) => chatText(m).startsWith('echo:')).length === 2 || null, { what: 'both prompts answered', timeoutMs: 60_000 }).catch(async (error: unknown) => {
      // A rehearsal saw one of the two never typed: say what the store holds of each run and prompt.
      const prompts = await a.store.listPrompts({ namespace: a.namespace, sessionId: runner.sessionId });
      const runs = [await stored(a, once.id), await stored(a, recurring.id)].map((s) => ({ prompt: s.prompt, runs: s.runs, lastRun: s.lastRun }));
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nprompts: ${JSON.stringify(prompts.map((p) => ({ text: p.text, status: p.status, reason: p.reason, handedAt: p.handedAt })))}\nruns: ${JSON.stringify(runs)}`);
    });
    // Later ticks, up to just before the recurring one's next run, fire nothing again.
    await clock.set((await stored(a, recurring.id)).nextRunAt! - 10_000);
    expect(said(fake.mainRequests(), 'fired by one hub')).toBe(1);
    expect(said(fake.mainRequests(), 'each run by one hub')).toBe(1);
    expect(await stored(a, once.id)).toMatchObject({ runs: 1 });
    expect(await stored(b, recurring.id)).toMatchObject({ runs: 1 });
    const prompts = await a.store.listPrompts({ namespace: a.namespace, sessionId: runner.sessionId });
    expect(prompts.map((p) => p.text).sort()).toEqual(['each run by one hub', 'fired by one hub']);
  }, 150_000);

});

describe('tether schedule', () => {
  it('tether schedule makes, lists and removes a schedule, and refuses bad timing before sending it', async () => {
    const clock = manualClock();
    const stage = await startStage(defer, { hub: { schedules: { clock } } });
    const runner = await connectSocket({ url: stage.hub.url, nsp: '/cli', token: stage.hub.token });
    defer(() => runner.close());
    const sessionId = crypto.randomUUID();
    expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: stage.sandbox.cwd, launchKind: 'pty', status: 'idle' })).ok).toBe(true);
    const delivered: string[] = [];
    runner.on('prompt:deliver', (d: { text: string }) => delivered.push(d.text));
    const env = { TETHER_HOME: stage.tempDir('tether-cli-home-'), TETHER_HUB_URL: stage.hub.url, TETHER_TOKEN: stage.hub.token };

    const made = await runTether(['schedule', sessionId, '--in', '20s', 'from the shell'], env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^[0-9a-f-]{36}\nnext runs: .+\n$/);
    const id = made.stdout.split('\n')[0]!;
    const listed = await runTether(['schedule', 'list'], env);
    expect(listed.stdout).toContain(`${id}  next `);
    expect(listed.stdout).toContain(`session ${sessionId}  "from the shell"`);

    for (const [args, reason] of [
      [['--cron', '*/2 * * * *'], 'runs more often than every 5 minutes'],
      [['--cron', '0 9 30 2 *'], 'it never fires: no day 30 in feb'],
      [['--at', '2020-01-01T09:00'], 'in the past'],
      [['--in', 'soon'], 'is not a duration'],
    ] as const) {
      const refused = await runTether(['schedule', sessionId, ...args, 'x'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(reason);
    }

    // `--in 20s` counts from the CLI's own clock (the real one): the hub's hand-moved clock goes to that run.
    const [kept] = await stage.hub.store.listSchedules({ namespace: stage.hub.namespace });
    expect(kept!.nextRunAt! - Date.now()).toBeGreaterThan(10_000);
    await clock.set(kept!.nextRunAt! + 1_000);
    await expect.poll(() => delivered).toEqual(['from the shell']);
    const removed = await runTether(['schedule', 'rm', id], env);
    expect(removed.code).toBe(0);
    expect((await runTether(['schedule', 'list'], env)).stdout).toBe('no schedules\n');
    expect(await stage.hub.store.listSchedules({ namespace: stage.hub.namespace })).toEqual([]);
  }, 60_000);
});
