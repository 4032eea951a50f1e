// schedules.test.ts: schedules against a real hub on port 0 with real socket.io clients and a clock
// moved by hand: a one-time prompt reaches its session at its time and not before, a recurring one
// runs each time, a run missed while the hub was down runs once after it returns (or is skipped),
// bad timing is refused in words, and a revoked maker's schedule never runs.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { Schedule, ScheduleCreate } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';
import { manualClock } from '../testing/manual-clock.ts';
import { runnerWithDeliveries, type Delivered } from '../testing/runner-deliveries.ts';

const START = Date.parse('2026-05-05T10:00:30Z');
const clock = manualClock(START);
const live = hubUnderTest({ home: 'tether-schedules-', label: 'phone', config: { schedules: { clock } } });
const { connect, ack, next } = live;

async function sessionWithRunner() {
  await clock.set(START);
  return runnerWithDeliveries(live);
}
const create = (web: Socket, fields: Omit<ScheduleCreate, 'id'>) => ack<{ schedule: Schedule }>(web, 'schedule:create', { id: randomUUID(), ...fields });
/** The namespace's schedules as the socket's tab lists them. */
async function listed(socket: Socket): Promise<Schedule[]> {
  const answer = await ack<{ schedules: Schedule[] }>(socket, 'schedule:list', {});
  if (!answer.ok) throw new Error(answer.error);
  return answer.schedules;
}
/** What the tab knows of a schedule after the tick that ran it. */
const ran = (web: Socket, id: string) => next<Schedule>(web, 'schedule:updated', (s) => s.id === id && s.lastRun !== null);

describe('schedules', () => {
  it('a one-time prompt reaches the session at its time, not before, and once', async () => {
    const { web, sid, delivered } = await sessionWithRunner();
    const made = await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 20_000 }, prompt: 'run the tests' });
    if (!made.ok) throw new Error(made.error);
    expect(made.schedule).toMatchObject({ nextRunAt: START + 20_000, createdBy: 'phone', missed: 'run', paused: false });
    await clock.advance(19_000);
    expect(delivered).toEqual([]);
    const heard = ran(web, made.schedule.id);
    await clock.advance(1_000);
    expect((await heard).lastRun).toMatchObject({ outcome: 'sent', dueAt: START + 20_000, missed: false, sessionId: sid });
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['run the tests']);
    await clock.advance(600_000);
    expect(delivered).toHaveLength(1);
    expect((await listed(web))).toEqual([expect.objectContaining({ nextRunAt: null, runs: 1 })]);
  });

  it('a recurring prompt runs at each of its times', async () => {
    const { web, sid, delivered } = await sessionWithRunner();
    const made = await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'Europe/Berlin' }, prompt: 'status?' });
    if (!made.ok) throw new Error(made.error);
    expect(made.schedule.nextRunAt).toBe(Date.parse('2026-05-05T10:05:00Z'));
    await clock.set(Date.parse('2026-05-05T10:05:01Z'));
    await clock.set(Date.parse('2026-05-05T10:09:59Z'));
    await expect.poll(() => delivered.length).toBe(1);
    await clock.set(Date.parse('2026-05-05T10:10:02Z'));
    await expect.poll(() => delivered.length).toBe(2);
    const [schedule] = (await listed(web));
    expect(schedule).toMatchObject({ runs: 2, nextRunAt: Date.parse('2026-05-05T10:15:00Z') });
  });

  it('refuses a cron that never fires, one more often than every five minutes, a time in the past, an ended session', async () => {
    const { web, sid } = await sessionWithRunner();
    const target = { kind: 'session' as const, sessionId: sid };
    const cron = (expression: string) => create(web, { target, when: { kind: 'cron', expression, timeZone: 'UTC' }, prompt: 'x' });
    expect(await cron('0 9 30 2 *')).toMatchObject({ ok: false, code: 'bad_request', error: 'it never fires: no day 30 in feb' });
    expect(await cron('*/2 * * * *')).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('more often than every 5 minutes') });
    expect(await cron('0 9 * * * *')).toMatchObject({ ok: false, error: expect.stringContaining('5 fields') });
    expect(await create(web, { target, when: { kind: 'once', at: START - 1 }, prompt: 'x' })).toMatchObject({ ok: false, error: expect.stringContaining('in the past') });
    expect(await create(web, { target, when: { kind: 'cron', expression: '0 9 * * *', timeZone: 'Mars/Olympus' }, prompt: 'x' })).toMatchObject({ ok: false, code: 'bad_request' });
    await live.hub.store.endSession({ namespace: 'alpha', sessionId: sid, status: 'ended', exitCode: 0, reason: null, now: START });
    expect(await create(web, { target, when: { kind: 'once', at: START + 60_000 }, prompt: 'x' })).toMatchObject({ ok: false, code: 'gone' });
    expect((await listed(web))).toEqual([]);
  });

  it('runs a run missed while the hub was down once after it returns, or skips it as chosen', async () => {
    const { web, sid } = await sessionWithRunner();
    const target = { kind: 'session' as const, sessionId: sid };
    const runs = await create(web, { target, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' }, prompt: 'made up once' });
    const skips = await create(web, { target, when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' }, prompt: 'never', missed: 'skip' });
    if (!runs.ok || !skips.ok) throw new Error('not made');
    // Down from 10:00:30 to 10:31: six runs of each were due meanwhile.
    await live.restart();
    await clock.set(Date.parse('2026-05-05T10:31:00Z'));
    // Nothing of the first hub runs the ticks now; the runner comes back to the new hub.
    const runner = await connect({ nsp: '/cli' });
    const delivered: Delivered[] = [];
    runner.on('prompt:deliver', (d: Delivered) => delivered.push(d));
    await live.register(runner, { id: sid, status: 'idle' });
    const phone = await connect({ nsp: '/web' });
    await clock.advance(1_000);
    await expect.poll(() => delivered.map((d) => d.text)).toEqual(['made up once']);
    const list = (await listed(phone));
    expect(list.find((s) => s.id === runs.schedule.id)).toMatchObject({ runs: 1, nextRunAt: Date.parse('2026-05-05T10:35:00Z'), lastRun: { outcome: 'sent', missed: true, dueAt: Date.parse('2026-05-05T10:05:00Z') } });
    expect(list.find((s) => s.id === skips.schedule.id)).toMatchObject({ runs: 1, lastRun: { outcome: 'skipped', missed: true, detail: expect.stringContaining('skipped, as chosen') } });
    await clock.advance(60_000);
    expect(delivered).toHaveLength(1);
  });

  it("a schedule made by a device goes with that device's revocation, and never runs", async () => {
    const { sid, delivered } = await sessionWithRunner();
    const deviceToken = await live.token('alpha', { label: 'old phone' });
    const device = await connect({ nsp: '/web', token: deviceToken });
    const made = await create(device, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'x' });
    if (!made.ok) throw new Error(made.error);
    const tokenId = (await live.hub.store.listTokens({ namespace: 'alpha' })).find((t) => t.label === 'old phone')!.id;
    await live.hub.store.revokeToken({ id: tokenId, at: START });
    await clock.advance(61_000);
    const phone = await connect({ nsp: '/web' });
    expect((await listed(phone))).toEqual([]);
    expect(delivered).toEqual([]);
  });

  it('a paired phone signed out from another device: its schedules go at once, and every tab hears it', async () => {
    const { web, sid } = await sessionWithRunner();
    const url = live.hub.url;
    const { session, tokenId: deviceId } = await live.pairDevice();
    const phone = await connect({ nsp: '/web', token: session });
    const made = await create(phone, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'x' });
    if (!made.ok) throw new Error(made.error);
    const kept = await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'kept' });
    if (!kept.ok) throw new Error(kept.error);

    const heard = next<{ id: string }>(web, 'schedule:removed');
    expect((await fetch(`${url}/api/devices/${deviceId}`, { method: 'DELETE', headers: { authorization: `Bearer ${live.accessToken}` } })).status).toBe(200);
    expect(await heard).toEqual({ id: made.schedule.id });
    expect((await listed(web)).map((s) => s.prompt)).toEqual(['kept']);
  });

  it("another namespace's schedules are not there for it", async () => {
    const { web, sid } = await sessionWithRunner();
    const made = await create(web, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'x' });
    if (!made.ok) throw new Error(made.error);
    const other = await connect({ nsp: '/web', token: await live.token('beta') });
    expect((await listed(other))).toEqual([]);
    expect(await ack(other, 'schedule:remove', { id: made.schedule.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(other, 'schedule:update', { id: made.schedule.id, paused: true })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await create(other, { target: { kind: 'session', sessionId: sid }, when: { kind: 'once', at: START + 60_000 }, prompt: 'x' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(web, 'schedule:update', { id: made.schedule.id, paused: true })).toMatchObject({ ok: true, schedule: { paused: true, nextRunAt: null } });
    expect(await ack(web, 'schedule:remove', { id: made.schedule.id })).toMatchObject({ ok: true });
  });
});
