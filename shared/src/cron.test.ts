import { describe, expect, it } from 'vitest';
import { CronError, firstInstant, nextRun, nextRuns, parseCron } from './cron.ts';
import { firstRunOf, runAfter } from './schedules.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

describe('cron', () => {
  it('reads values, ranges, steps, lists and names', () => {
    const cron = parseCron('*/15 9-17/4 1,15 jan-mar MON-fri');
    expect(cron.minutes).toEqual([0, 15, 30, 45]);
    expect(cron.hours).toEqual([9, 13, 17]);
    expect([...cron.days]).toEqual([1, 15]);
    expect([...cron.months]).toEqual([1, 2, 3]);
    expect([...cron.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect([...parseCron('0 0 * * 7').weekdays]).toEqual([0]);
    expect(parseCron('5/20 * * * *').minutes).toEqual([5, 25, 45]);
  });

  it.each([
    ['* * * *', /5 fields.*has 4/],
    ['60 * * * *', /minute: 60 is outside 0–59/],
    ['* 24 * * *', /hour: 24/],
    ['* * 0 * *', /day of month: 0/],
    ['*/0 * * * *', /step "0"/],
    ['5-1 * * * *', /runs backwards/],
    ['x * * * *', /"x" is not a number/],
    ['* * * foo *', /"foo" is not a number or a name/],
  ])('refuses %s with its reason', (expression, reason) => {
    expect(() => parseCron(expression)).toThrow(CronError);
    expect(() => parseCron(expression)).toThrow(reason);
  });

  it('finds the next runs in UTC', () => {
    const cron = parseCron('30 9 * * 1');
    expect(nextRuns(cron, { after: at('2026-03-04T00:00:00Z'), timeZone: 'UTC', count: 2 }).map(iso)).toEqual(['2026-03-09T09:30:00.000Z', '2026-03-16T09:30:00.000Z']);
    // Strictly after: a run at the very instant is not next.
    expect(iso(nextRun(cron, { after: at('2026-03-09T09:30:00Z'), timeZone: 'UTC' }))).toBe('2026-03-16T09:30:00.000Z');
  });

  it('fires when day of month OR day of week matches if both are restricted', () => {
    const runs = nextRuns(parseCron('0 12 13 * 5'), { after: at('2026-02-01T00:00:00Z'), timeZone: 'UTC', count: 3 });
    expect(runs.map(iso)).toEqual(['2026-02-06T12:00:00.000Z', '2026-02-13T12:00:00.000Z', '2026-02-20T12:00:00.000Z']);
  });

  it('reads wall-clock time in the zone', () => {
    expect(iso(nextRun(parseCron('0 9 * * *'), { after: at('2026-07-01T00:00:00Z'), timeZone: 'Europe/Berlin' }))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(nextRun(parseCron('0 9 * * *'), { after: at('2026-01-10T00:00:00Z'), timeZone: 'America/New_York' }))).toBe('2026-01-10T14:00:00.000Z');
  });

  it('skips a wall time the clocks jump over (spring forward)', () => {
    // New York, 8 March 2026: 02:00 → 03:00. 02:30 does not exist that day.
    expect(firstInstant(Date.UTC(2026, 2, 8, 2, 30), 'America/New_York')).toBeNull();
    const runs = nextRuns(parseCron('30 2 * * *'), { after: at('2026-03-07T00:00:00Z'), timeZone: 'America/New_York', count: 2 });
    expect(runs.map(iso)).toEqual(['2026-03-07T07:30:00.000Z', '2026-03-09T06:30:00.000Z']);
  });

  it('runs a wall time that happens twice (fall back) once, at its first occurrence', () => {
    // New York, 1 November 2026: 02:00 EDT → 01:00 EST; 01:30 happens at 05:30Z and 06:30Z.
    const runs = nextRuns(parseCron('30 1 * * *'), { after: at('2026-11-01T00:00:00Z'), timeZone: 'America/New_York', count: 2 });
    expect(runs.map(iso)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
    const everyHalfHour = nextRuns(parseCron('*/30 * * * *'), { after: at('2026-11-01T05:00:00Z'), timeZone: 'America/New_York', count: 3 });
    // 01:00 EDT, 01:30 EDT, then 02:00 EST (the repeated 01:00 and 01:30 EST do not run again).
    expect(everyHalfHour.map(iso)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T07:00:00.000Z', '2026-11-01T07:30:00.000Z']);
  });

  it('finds 29 February years ahead', () => {
    expect(iso(nextRun(parseCron('0 0 29 2 *'), { after: at('2026-03-01T00:00:00Z'), timeZone: 'UTC' }))).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('firstRunOf (what the hub, the phone and the CLI refuse)', () => {
  const now = at('2026-05-05T10:00:00Z');
  const cron = (expression: string) => firstRunOf({ kind: 'cron', expression, timeZone: 'UTC' }, now);

  it('refuses a cron that never fires', () => {
    expect(cron('0 9 30 2 *')).toEqual({ error: 'it never fires: no day 30 in feb' });
    expect(cron('0 9 31 4,6 *')).toEqual({ error: 'it never fires: no day 31 in apr, jun' });
  });

  it('refuses one more often than every five minutes, midnight included', () => {
    expect(cron('* * * * *')).toEqual({ error: 'it runs more often than every 5 minutes (00:00 and 00:01 are 1 min apart)' });
    expect(cron('0,3 9 * * *')).toMatchObject({ error: expect.stringContaining('09:00 and 09:03 are 3 min apart') });
    expect(cron('58 23 * * *')).toEqual({ at: at('2026-05-05T23:58:00Z') });
    expect(cron('0,58 0,23 * * *')).toMatchObject({ error: expect.stringContaining('23:58 and 00:00 are 2 min apart') });
    expect(cron('*/5 * * * *')).toEqual({ at: at('2026-05-05T10:05:00Z') });
  });

  it('refuses a time in the past and passes a bad expression on in words', () => {
    expect(firstRunOf({ kind: 'once', at: now - 1 }, now)).toMatchObject({ error: expect.stringContaining('in the past') });
    expect(firstRunOf({ kind: 'once', at: now + 20_000 }, now)).toEqual({ at: now + 20_000 });
    expect(cron('0 9 * *')).toMatchObject({ error: expect.stringContaining('5 fields') });
  });

  it('a one-time schedule has no run after its one', () => {
    expect(runAfter({ kind: 'once', at: now }, now)).toBeNull();
    expect(runAfter({ kind: 'cron', expression: '0 * * * *', timeZone: 'UTC' }, now)).toBe(at('2026-05-05T11:00:00Z'));
  });
});
