// unattended.contract.ts: the guard on unattended work against a real hub (socket.io clients, a clock
// moved by hand for schedules), run on SQLite (unattended.test.ts) and PostgreSQL
// (tests/store/postgres-unattended.test.ts):
//  - the pause switch and the day's cap stop a schedule's run: recorded on the schedule as stopped,
//    told, moved on (never retried); every tab hears the guard change;
//  - the pause holds a usage-limit continue: recorded on the session's limit, never retried;
//  - a pending continue survives a hub restart with its runner away: queued once at the reset;
//  - a held prompt sent by a device dies with the device's revocation;
//  - an approval a scheduled prompt raises waits for a person;
//  - the namespace's continue-at-reset default (continue-default.contract.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MAX_UNATTENDED_DAILY_CAP, type PendingRequest, type Prompt, type Schedule, type ScheduleCreate, type Session, type UnattendedGuard } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { manualClock } from '../testing/manual-clock.ts';
import { runnerWithDeliveries, type Delivered } from '../testing/runner-deliveries.ts';
import { continueDefaultTests } from './continue-default.contract.ts';


const START = Date.parse('2026-05-05T10:00:30Z');

/** One hub per test (SQLite, or a fresh PostgreSQL database), a hand-moved schedules clock, and what the tests share. */
function guardWorld(options: { database?: () => Promise<string> }) {
  const clock = manualClock(START);
  const live = hubUnderTest({
    home: 'tether-unattended-',
    label: 'phone',
    config: { schedules: { clock }, limits: { continueByDefault: true, marginMs: 100, agentGraceMs: 100 } },
    ...(options.database ? { database: options.database } : {}),
  });
  const { connect, ack, next } = live;

  async function sessionWithRunner() {
    await clock.set(START);
    return runnerWithDeliveries(live);
  }
  const create = async (web: Socket, fields: Omit<ScheduleCreate, 'id'>) => {
    const made = await ack<{ schedule: Schedule }>(web, 'schedule:create', { id: randomUUID(), ...fields });
    if (!made.ok) throw new Error(made.error);
    return made.schedule;
  };
  const stored = async (id: string) => (await live.hub.store.listSchedules({ namespace: 'alpha' })).find((s) => s.id === id)!;
  const setGuard = async (web: Socket, change: Record<string, unknown>) => {
    const answer = await ack<{ guard: UnattendedGuard }>(web, 'unattended:set', change);
    if (!answer.ok) throw new Error(answer.error);
    return answer.guard;
  };

  return { clock, live, connect, ack, next, sessionWithRunner, create, stored, setGuard };
}
export type GuardWorld = ReturnType<typeof guardWorld>;

export function runUnattendedHubContract(options: { name: string; database?: () => Promise<string> }): void {
  const world = guardWorld(options);
  describe(`the unattended guard: schedules (${options.name})`, () => scheduleTests(world));
  describe(`the unattended guard: continues, held prompts, approvals (${options.name})`, () => continueTests(world));
  describe(`the namespace's continue-at-reset default (${options.name})`, () => continueDefaultTests(world));
}

function scheduleTests({ clock, live, connect, ack, next, sessionWithRunner, create, stored, setGuard }: GuardWorld): void {
  it('pause stops a schedule run: recorded as stopped, moved on and not retried; resumed, the next run goes', async () => {
    const { web, sid, delivered } = await sessionWithRunner();
    const other = await connect({ nsp: '/web' });
    const heard = next<UnattendedGuard>(other, 'unattended:updated');
    expect(await setGuard(web, { paused: true })).toMatchObject({ paused: true, dailyCap: 20, runsToday: 0 });
    expect(await heard).toMatchObject({ paused: true });
    const every5 = await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' }, prompt: 'while paused' });
    const stopped = next<Schedule>(web, 'schedule:updated', (s) => s.id === every5.id && s.lastRun !== null);
    await clock.set(Date.parse('2026-05-05T10:05:01Z'));
    expect((await stopped).lastRun).toMatchObject({ outcome: 'stopped', sessionId: sid, detail: 'not run: everything unattended is paused' });
    // Later ticks do not try it again; the next run is the next cron time.
    await clock.advance(60_000);
    expect(await stored(every5.id)).toMatchObject({ runs: 1, nextRunAt: Date.parse('2026-05-05T10:10:00Z') });
    expect(delivered).toEqual([]);
    expect(await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid })).toEqual([]);
    expect(await setGuard(web, { paused: false })).toMatchObject({ paused: false, runsToday: 0 });
    await clock.set(Date.parse('2026-05-05T10:10:01Z'));
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['while paused']);
    expect((await stored(every5.id)).lastRun).toMatchObject({ outcome: 'sent' });
    expect((await ack<{ guard: UnattendedGuard }>(web, 'unattended:get', {})).guard).toMatchObject({ runsToday: 1, day: '2026-05-05' });
  });

  it('the day\'s cap stops the runs past it (each recorded and told), a new UTC day runs again; refused out of range; per namespace', async () => {
    const { web, sid, delivered } = await sessionWithRunner();
    expect(await ack(web, 'unattended:set', { dailyCap: MAX_UNATTENDED_DAILY_CAP + 1 })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(await ack(web, 'unattended:set', {})).toMatchObject({ ok: false, code: 'bad_request' });
    await setGuard(web, { dailyCap: 1 });
    const target = { kind: 'session' as const, sessionId: sid };
    const a = await create(web, { target, when: { kind: 'once', at: START + 60_000 }, prompt: 'first' });
    const b = await create(web, { target, when: { kind: 'once', at: START + 61_000 }, prompt: 'second' });
    await clock.advance(62_000);
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['first']);
    expect((await stored(a.id)).lastRun).toMatchObject({ outcome: 'sent' });
    expect(await stored(b.id)).toMatchObject({ nextRunAt: null, lastRun: { outcome: 'stopped', detail: expect.stringContaining('daily cap of 1 unattended run was reached') } });
    const other = await connect({ nsp: '/web', token: await live.token('beta') });
    expect((await ack<{ guard: UnattendedGuard }>(other, 'unattended:get', {})).guard).toMatchObject({ dailyCap: 20, runsToday: 0, paused: false });
    const tomorrow = await create(web, { target, when: { kind: 'once', at: Date.parse('2026-05-06T00:01:00Z') }, prompt: 'next day' });
    await clock.set(Date.parse('2026-05-06T00:01:01Z'));
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['first', 'next day']);
    expect((await stored(tomorrow.id)).lastRun).toMatchObject({ outcome: 'sent' });
  });

}

function continueTests({ clock, live, connect, ack, next, sessionWithRunner, create, setGuard }: GuardWorld): void {
  it('pause holds a usage-limit continue: recorded on the limit, the reset counted as continued, nothing sent, not retried', async () => {
    const { runner, web, sid, delivered } = await sessionWithRunner();
    await setGuard(web, { paused: true });
    const held = next<Session>(web, 'session:updated', (s) => s.id === sid && s.limit?.held === 'paused');
    await ack(runner, 'session:update', { sessionId: sid, patch: { limit: { resetsAt: Date.now() + 300 } } });
    expect((await held).limit).toMatchObject({ continued: true, held: 'paused' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(delivered).toEqual([]);
    expect(await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid })).toEqual([]);
  });

  it('a pending continue survives a hub restart while its runner stays away: queued once at the reset, handed over when it returns', async () => {
    const { runner, sid } = await sessionWithRunner();
    await ack(runner, 'session:update', { sessionId: sid, patch: { limit: { resetsAt: Date.now() + 1_500 } } });
    await live.restart();
    // Not fired before the restart: the new hub, with nobody registered, knows the limit only from its store.
    expect(await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid })).toEqual([]);
    await expect.poll(async () => (await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid })).map((p) => p.text), { timeout: 5_000 }).toEqual(['continue']);
    expect(await live.hub.store.getSession({ namespace: 'alpha', sessionId: sid })).toMatchObject({ limit: { continued: true, held: null } });
    const back = await connect({ nsp: '/cli' });
    const delivered: Delivered[] = [];
    back.on('prompt:deliver', (d: Delivered) => delivered.push(d));
    await live.register(back, { id: sid, status: 'idle' });
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['continue']);
    // A second restart finds the reset continued: nothing more.
    await live.restart();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid })).map((p) => p.text)).toEqual(['continue']);
  });

  it("a prompt held for an away runner dies with its device's revocation; another's is handed over", async () => {
    const { runner, sid } = await sessionWithRunner();
    runner.close();
    const paired = await live.pairDevice();
    const device = await connect({ nsp: '/web', token: paired.session });
    const phone = await connect({ nsp: '/web' });
    const sent = async (socket: Socket, text: string): Promise<Prompt> => {
      const answer = await ack<{ prompt: Prompt }>(socket, 'prompt:send', { sessionId: sid, promptId: randomUUID(), text, attachments: [] });
      if (!answer.ok) throw new Error(answer.error);
      return answer.prompt;
    };
    const gone = await sent(device, 'from the lost phone');
    await sent(phone, 'from the kept one');
    const dropped = next<Prompt>(phone, 'prompt:updated', (p) => p.id === gone.id);
    expect((await fetch(`${live.hub.url}/api/devices/${paired.tokenId}`, { method: 'DELETE', headers: { authorization: `Bearer ${live.accessToken}` } })).status).toBe(200);
    expect(await dropped).toMatchObject({ status: 'dropped', reason: "its sender's device was signed out" });
    const back = await connect({ nsp: '/cli' });
    const delivered: Delivered[] = [];
    back.on('prompt:deliver', (d: Delivered) => delivered.push(d));
    await live.register(back, { id: sid, status: 'idle' });
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['from the kept one']);
  });

  it('an approval a scheduled prompt raises waits for a person: nothing answers it', async () => {
    const { runner, web, sid, delivered } = await sessionWithRunner();
    const answered: unknown[] = [];
    runner.on('approval:answered', (a: unknown) => answered.push(a));
    await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'touch it' });
    await clock.advance(61_000);
    await expect.poll(() => delivered.length).toBe(1);
    const asked = next<PendingRequest>(web, 'approval:requested');
    const request = { id: randomUUID(), sessionId: sid, kind: 'permission', toolName: 'Bash', toolInput: { command: 'touch ran.txt' }, toolUseId: null, createdAt: Date.now() };
    expect(await ack(runner, 'approval:request', request)).toEqual({ ok: true });
    expect((await asked).id).toBe(request.id);
    await clock.advance(600_000);
    expect(answered).toEqual([]);
    expect((await live.hub.store.listPending({ namespace: 'alpha', sessionId: sid })).map((r) => r.id)).toEqual([request.id]);
  });
}
