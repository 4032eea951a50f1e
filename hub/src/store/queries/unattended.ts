// unattended.ts (queries): the namespace's unattended guard (shared unattended.ts). A run is counted
// by one conditional UPDATE: SQLite runs one writer at a time and PostgreSQL re-checks the WHERE of
// the second of two racing UPDATEs against the row the first committed, so two hubs never both take
// the cap's last run.
import { guardDay, type Namespace, type UnattendedGuard } from '@tether/shared';
import type { Store, UnattendedClaim } from '../store.ts';
import { first, type SqlRunner, type SqlDriver } from '../sql/driver.ts';
import type { Row } from '../rows.ts';

function rowToGuard(row: Row): UnattendedGuard {
  return { paused: row.paused === true || row.paused === 1, dailyCap: Number(row.daily_cap), day: row.day as string, runsToday: Number(row.runs) };
}

/** The namespace's row, made with the defaults when it has none. */
async function ensureRow(db: SqlRunner, o: { namespace: Namespace; defaultCap: number; now: number }): Promise<void> {
  await db.run(`INSERT INTO unattended_guard (namespace, paused, daily_cap, day, runs, updated_at) VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (namespace) DO NOTHING`, [
    o.namespace,
    false,
    o.defaultCap,
    guardDay(o.now),
    o.now,
  ]);
}

export function unattendedQueries(db: SqlDriver): Pick<Store, 'getUnattendedGuard' | 'setUnattendedGuard' | 'claimUnattendedRun'> {
  return {
    async getUnattendedGuard({ namespace, defaultCap }) {
      const row = await first(db, `SELECT * FROM unattended_guard WHERE namespace = $1`, [namespace]);
      return row ? rowToGuard(row) : { paused: false, dailyCap: defaultCap, day: guardDay(Date.now()), runsToday: 0 };
    },
    async setUnattendedGuard({ namespace, paused, dailyCap, defaultCap, now }) {
      await ensureRow(db, { namespace, defaultCap, now });
      const row = await first(
        db,
        `UPDATE unattended_guard SET paused = COALESCE($2, paused), daily_cap = COALESCE($3, daily_cap), updated_at = $4 WHERE namespace = $1 RETURNING *`,
        [namespace, paused ?? null, dailyCap ?? null, now],
      );
      return rowToGuard(row!);
    },
    async claimUnattendedRun({ namespace, day, defaultCap, now }): Promise<UnattendedClaim> {
      await ensureRow(db, { namespace, defaultCap, now });
      const counted = await first(
        db,
        `UPDATE unattended_guard SET runs = CASE WHEN day = $2 THEN runs + 1 ELSE 1 END, day = $2, updated_at = $3
         WHERE namespace = $1 AND NOT paused AND (day <> $2 OR runs < daily_cap) AND daily_cap > 0 RETURNING *`,
        [namespace, day, now],
      );
      if (counted) return { kind: 'counted', guard: rowToGuard(counted) };
      const guard = rowToGuard((await first(db, `SELECT * FROM unattended_guard WHERE namespace = $1`, [namespace]))!);
      return { kind: guard.paused ? 'paused' : 'cap', guard };
    },
  };
}
