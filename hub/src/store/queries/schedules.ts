// schedules.ts (queries): scheduled prompts (shared schedules.ts). The run is claimed with one
// conditional UPDATE (next_run_at still the due time, not paused, the last run far enough back):
// of several hubs on one database exactly one changes the row, and only it fires.
import { MissedRunSchema, ScheduleRunSchema, ScheduleTargetSchema, ScheduleWhenSchema, type Namespace, type Schedule } from '@tether/shared';
import type { ScheduleStore } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import type { Row } from '../rows.ts';

const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

function rowToSchedule(row: Row): Schedule {
  const lastRun = row.last_run === null || row.last_run === undefined ? null : ScheduleRunSchema.parse(json(row.last_run));
  return {
    id: row.id as string,
    target: ScheduleTargetSchema.parse(json(row.target)),
    when: ScheduleWhenSchema.parse(json(row.timing)),
    prompt: row.prompt as string,
    missed: MissedRunSchema.catch('skip').parse(row.missed),
    paused: row.paused === 1 || row.paused === true,
    nextRunAt: row.next_run_at === null ? null : Number(row.next_run_at),
    lastRun,
    runs: Number(row.runs),
    createdBy: row.created_by as string,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function scheduleQueries(db: SqlDriver): ScheduleStore {
  const get = async (namespace: Namespace, id: string) => {
    const row = await first(db, `SELECT * FROM schedules WHERE id = $1 AND namespace = $2`, [id, namespace]);
    return row ? rowToSchedule(row) : null;
  };
  return {
    addSchedule({ namespace, schedule: s, creatorTokenId, max }) {
      return db.transaction(async (tx) => {
        const existing = await first(tx, `SELECT * FROM schedules WHERE id = $1`, [s.id]);
        // Another namespace's schedule is never shown: its id is only `taken`.
        if (existing) return existing.namespace === namespace ? { kind: 'exists', schedule: rowToSchedule(existing) } : { kind: 'taken' };
        const count = await first(tx, `SELECT COUNT(*) AS n FROM schedules WHERE namespace = $1`, [namespace]);
        if (Number(count?.n ?? 0) >= max) return { kind: 'full' };
        await tx.run(
          `INSERT INTO schedules (id, namespace, target, timing, prompt, missed, paused, next_run_at, last_fired_at, last_run, runs, created_by, creator_token_id, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, 0, $9, $10, $11, $11)`,
          [s.id, namespace, JSON.stringify(s.target), JSON.stringify(s.when), s.prompt, s.missed, s.paused, s.nextRunAt, s.createdBy, creatorTokenId, s.createdAt],
        );
        const row = await first(tx, `SELECT * FROM schedules WHERE id = $1`, [s.id]);
        return { kind: 'added', schedule: rowToSchedule(row!) };
      });
    },
    getSchedule: ({ namespace, id }) => get(namespace, id),
    async listSchedules({ namespace }) {
      return (await db.all(`SELECT * FROM schedules WHERE namespace = $1 ORDER BY created_at, id`, [namespace])).map(rowToSchedule);
    },
    async changeSchedule({ namespace, id, change: c, now }) {
      const changed = await db.run(
        `UPDATE schedules SET timing = $3, prompt = $4, missed = $5, paused = $6, next_run_at = $7, updated_at = $8 WHERE id = $1 AND namespace = $2`,
        [id, namespace, JSON.stringify(c.when), c.prompt, c.missed, c.paused, c.nextRunAt, now],
      );
      return changed > 0 ? get(namespace, id) : null;
    },
    async deleteSchedule({ namespace, id }) {
      return (await db.run(`DELETE FROM schedules WHERE id = $1 AND namespace = $2`, [id, namespace])) > 0;
    },
    async dueSchedules({ now, limit }) {
      const rows = await db.all(`SELECT * FROM schedules WHERE next_run_at IS NOT NULL AND next_run_at <= $1 AND NOT paused ORDER BY next_run_at, id LIMIT $2`, [now, limit]);
      return rows.map((row) => ({ namespace: row.namespace as string, schedule: rowToSchedule(row), creatorTokenId: (row.creator_token_id as string | null) ?? null }));
    },
    async claimScheduleRun({ namespace, id, dueAt, nextRunAt, minGapMs, now }) {
      const changed = await db.run(
        `UPDATE schedules SET next_run_at = $4, last_fired_at = $5, runs = runs + 1, updated_at = $5
         WHERE id = $1 AND namespace = $2 AND next_run_at = $3 AND NOT paused AND (last_fired_at IS NULL OR last_fired_at <= $6)`,
        [id, namespace, dueAt, nextRunAt, now, now - minGapMs],
      );
      return changed === 1;
    },
    async recordScheduleRun({ namespace, id, run, pause, now }) {
      const changed = pause
        ? await db.run(`UPDATE schedules SET last_run = $3, paused = $4, next_run_at = NULL, updated_at = $5 WHERE id = $1 AND namespace = $2`, [id, namespace, JSON.stringify(run), true, now])
        : await db.run(`UPDATE schedules SET last_run = $3, updated_at = $4 WHERE id = $1 AND namespace = $2`, [id, namespace, JSON.stringify(run), now]);
      return changed > 0 ? get(namespace, id) : null;
    },
    async deleteSchedulesByTokens({ tokenIds }) {
      const gone: Array<{ namespace: Namespace; id: string }> = [];
      for (const tokenId of tokenIds) {
        const rows = await db.all(`DELETE FROM schedules WHERE creator_token_id = $1 RETURNING id, namespace`, [tokenId]);
        for (const row of rows) gone.push({ namespace: row.namespace as string, id: row.id as string });
      }
      return gone;
    },
  };
}
