// unattended.ts (queries): the namespace's unattended guard (shared unattended.ts) and its continue-
// at-reset default. A run is counted by one conditional UPDATE: SQLite runs one writer at a time and
// PostgreSQL re-checks the WHERE of the second of two racing UPDATEs against the row the first
// committed, so two hubs never both take the cap's last run.
import { DEFAULT_CONTINUE_PROMPT, guardDay, type Namespace, type UnattendedGuard } from '@tether/shared';
import type { GuardDefaults, Store, UnattendedClaim } from '../store.ts';
import { first, type SqlRunner, type SqlDriver } from '../sql/driver.ts';
import type { Row } from '../rows.ts';

const isTrue = (value: unknown) => value === true || value === 1;

/** The row as the person reads it; the continue default is the hub's until the namespace chose one. */
function rowToGuard(row: Row, defaults: GuardDefaults): UnattendedGuard {
  const chose = row.continue_on !== null && row.continue_on !== undefined;
  return {
    paused: isTrue(row.paused),
    dailyCap: Number(row.daily_cap),
    day: row.day as string,
    runsToday: Number(row.runs),
    limitContinue: { on: chose ? isTrue(row.continue_on) : defaults.defaultContinue, prompt: (row.continue_prompt as string | null) ?? DEFAULT_CONTINUE_PROMPT },
  };
}

/** The namespace's row, made with the defaults when it has none (the continue default left open). */
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
    async getUnattendedGuard({ namespace, ...defaults }) {
      const row = await first(db, `SELECT * FROM unattended_guard WHERE namespace = $1`, [namespace]);
      if (row) return rowToGuard(row, defaults);
      return { paused: false, dailyCap: defaults.defaultCap, day: guardDay(Date.now()), runsToday: 0, limitContinue: { on: defaults.defaultContinue, prompt: DEFAULT_CONTINUE_PROMPT } };
    },
    async setUnattendedGuard({ namespace, paused, dailyCap, limitContinue, now, ...defaults }) {
      await ensureRow(db, { namespace, defaultCap: defaults.defaultCap, now });
      const row = await first(
        db,
        `UPDATE unattended_guard SET paused = COALESCE($2, paused), daily_cap = COALESCE($3, daily_cap), continue_on = COALESCE($4, continue_on),
           continue_prompt = COALESCE($5, continue_prompt), updated_at = $6 WHERE namespace = $1 RETURNING *`,
        [namespace, paused ?? null, dailyCap ?? null, limitContinue?.on ?? null, limitContinue?.prompt ?? null, now],
      );
      return rowToGuard(row!, defaults);
    },
    async claimUnattendedRun({ namespace, day, now, ...defaults }): Promise<UnattendedClaim> {
      await ensureRow(db, { namespace, defaultCap: defaults.defaultCap, now });
      const counted = await first(
        db,
        `UPDATE unattended_guard SET runs = CASE WHEN day = $2 THEN runs + 1 ELSE 1 END, day = $2, updated_at = $3
         WHERE namespace = $1 AND NOT paused AND (day <> $2 OR runs < daily_cap) AND daily_cap > 0 RETURNING *`,
        [namespace, day, now],
      );
      if (counted) return { kind: 'counted', guard: rowToGuard(counted, defaults) };
      const guard = rowToGuard((await first(db, `SELECT * FROM unattended_guard WHERE namespace = $1`, [namespace]))!, defaults);
      return { kind: guard.paused ? 'paused' : 'cap', guard };
    },
  };
}
