// session-limits.ts (queries): a session's usage limit as the hub acts on it (usage-limits/): the
// person's continue choice, the one continue claim per reset, a continue the unattended guard held, and
// the sessions a starting hub follows again.
import type { Namespace } from '@tether/shared';
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToSession, sessionLimitReport } from '../rows.ts';
import { SESSION_COLUMNS, sessionIn } from './sessions.ts';

export function sessionLimitQueries(db: SqlDriver): Pick<Store, 'setLimitContinue' | 'claimLimitContinue' | 'holdLimitContinue' | 'sessionsAtLimit'> {
  return {
    async setLimitContinue({ namespace, sessionId, choice, now }) {
      const changed = await db.run(`UPDATE sessions SET limit_continue = $3, updated_at = $4 WHERE id = $1 AND namespace = $2`, [sessionId, namespace, choice ? JSON.stringify(choice) : null, now]);
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async claimLimitContinue({ namespace, sessionId, resetsAt }) {
      return db.transaction(async (tx) => {
        const row = await first(tx, `SELECT usage_limit, limit_continued_for FROM sessions WHERE id = $1 AND namespace = $2${db.lockRows}`, [sessionId, namespace]);
        if (!row || row.limit_continued_for !== null && Number(row.limit_continued_for) === resetsAt) return false;
        const stated = sessionLimitReport(row.usage_limit);
        if (stated?.resetsAt !== resetsAt) return false;
        return (await tx.run(`UPDATE sessions SET limit_continued_for = $3, limit_held = NULL WHERE id = $1 AND namespace = $2`, [sessionId, namespace, resetsAt])) > 0;
      });
    },
    async holdLimitContinue({ namespace, sessionId, resetsAt, held, now }) {
      const changed = await db.run(`UPDATE sessions SET limit_held = $4, updated_at = $5 WHERE id = $1 AND namespace = $2 AND limit_continued_for = $3`, [sessionId, namespace, resetsAt, held, now]);
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async sessionsAtLimit() {
      const rows = await db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.usage_limit IS NOT NULL`);
      return rows.map((row) => ({ namespace: row.namespace as Namespace, session: rowToSession(row) }));
    },
  };
}
