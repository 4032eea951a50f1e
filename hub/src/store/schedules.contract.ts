// schedules.contract.ts: the schedule queries (queries/schedules.ts) as every Store keeps them; run by
// store.contract.ts for SQLite and PostgreSQL alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Schedule } from '@tether/shared';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const ID = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
const OTHER = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
const SESSION = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const GAP = 300_000;

const schedule = (extra: Partial<Schedule> = {}): Schedule => ({
  id: ID,
  target: { kind: 'session', sessionId: SESSION },
  when: { kind: 'cron', expression: '*/5 * * * *', timeZone: 'UTC' },
  prompt: 'run the tests',
  missed: 'run',
  paused: false,
  nextRunAt: 1_000_000,
  lastRun: null,
  runs: 0,
  createdBy: 'phone',
  createdAt: 10,
  updatedAt: 10,
  ...extra,
});

export function runScheduleContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (schedules): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
    });
    afterEach(async () => {
      await cleanup();
    });

    it('adds once per id, within its namespace, up to the cap', async () => {
      expect(await store.addSchedule({ namespace: 'alpha', schedule: schedule(), creatorTokenId: 't1', max: 2 })).toEqual({ kind: 'added', schedule: schedule() });
      expect((await store.addSchedule({ namespace: 'alpha', schedule: schedule({ prompt: 'again' }), creatorTokenId: 't1', max: 2 })).kind).toBe('exists');
      expect((await store.addSchedule({ namespace: 'beta', schedule: schedule(), creatorTokenId: 't2', max: 2 })).kind).toBe('taken');
      expect(await store.getSchedule({ namespace: 'beta', id: ID })).toBeNull();
      expect((await store.addSchedule({ namespace: 'alpha', schedule: schedule({ id: OTHER }), creatorTokenId: null, max: 1 })).kind).toBe('full');
      expect((await store.listSchedules({ namespace: 'alpha' })).map((s) => s.id)).toEqual([ID]);
    });

    it('of two claims of one run, one wins; a run within the gap of the last is refused', async () => {
      await store.addSchedule({ namespace: 'alpha', schedule: schedule(), creatorTokenId: 't1', max: 10 });
      expect((await store.dueSchedules({ now: 999_999, limit: 10 })).length).toBe(0);
      const [due] = await store.dueSchedules({ now: 1_000_000, limit: 10 });
      expect(due).toMatchObject({ namespace: 'alpha', creatorTokenId: 't1', schedule: { id: ID } });
      const claim = (nextRunAt: number) => store.claimScheduleRun({ namespace: 'alpha', id: ID, dueAt: 1_000_000, nextRunAt, minGapMs: GAP, now: 1_000_100 });
      expect(await Promise.all([claim(1_300_000), claim(1_300_000)])).toEqual(expect.arrayContaining([true, false]));
      expect(await store.getSchedule({ namespace: 'alpha', id: ID })).toMatchObject({ nextRunAt: 1_300_000, runs: 1 });
      // The next run is due, but comes too soon after the last (a hand-edited clock): refused.
      expect(await store.claimScheduleRun({ namespace: 'alpha', id: ID, dueAt: 1_300_000, nextRunAt: 1_600_000, minGapMs: GAP, now: 1_200_000 })).toBe(false);
      expect(await store.claimScheduleRun({ namespace: 'beta', id: ID, dueAt: 1_300_000, nextRunAt: 1_600_000, minGapMs: GAP, now: 1_400_100 })).toBe(false);
    });

    it('records a run, pauses, changes and deletes, and forgets what a revoked token made', async () => {
      await store.addSchedule({ namespace: 'alpha', schedule: schedule(), creatorTokenId: 't1', max: 10 });
      await store.addSchedule({ namespace: 'alpha', schedule: schedule({ id: OTHER }), creatorTokenId: 't2', max: 10 });
      const run = { dueAt: 1_000_000, at: 1_000_100, outcome: 'failed' as const, missed: false, sessionId: SESSION, detail: 'session has ended' };
      expect(await store.recordScheduleRun({ namespace: 'alpha', id: ID, run, pause: true, now: 5 })).toMatchObject({ lastRun: run, paused: true, nextRunAt: null });
      expect(await store.dueSchedules({ now: 2_000_000, limit: 10 })).toHaveLength(1);
      const change = { when: { kind: 'once' as const, at: 3_000_000 }, prompt: 'later', missed: 'skip' as const, paused: false, nextRunAt: 3_000_000 };
      expect(await store.changeSchedule({ namespace: 'beta', id: ID, change, now: 6 })).toBeNull();
      expect(await store.changeSchedule({ namespace: 'alpha', id: ID, change, now: 6 })).toMatchObject({ when: change.when, prompt: 'later', missed: 'skip', paused: false, nextRunAt: 3_000_000, updatedAt: 6 });
      expect(await store.deleteSchedulesByTokens({ tokenIds: ['t2', 'nobody'] })).toEqual([{ namespace: 'alpha', id: OTHER }]);
      expect(await store.deleteSchedule({ namespace: 'beta', id: ID })).toBe(false);
      expect(await store.deleteSchedule({ namespace: 'alpha', id: ID })).toBe(true);
      expect(await store.listSchedules({ namespace: 'alpha' })).toEqual([]);
    });
  });
}
