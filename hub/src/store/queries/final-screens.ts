// final-screens.ts (queries): the last terminal screen of ended sessions, upserted, only the newest
// `keep` of a namespace kept.
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';

export function finalScreenQueries(db: SqlDriver): Pick<Store, 'saveFinalScreen' | 'getFinalScreen' | 'deleteFinalScreen'> {
  return {
    async saveFinalScreen({ namespace, sessionId, screen, keep }) {
      await db.transaction(async (tx) => {
        await tx.run(
          `INSERT INTO final_screens (namespace, session_id, "offset", cols, "rows", data, saved_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (namespace, session_id) DO UPDATE SET "offset" = $3, cols = $4, "rows" = $5, data = $6, saved_at = $7`,
          [namespace, sessionId, screen.offset, screen.cols, screen.rows, screen.data, screen.savedAt],
        );
        await tx.run(
          `DELETE FROM final_screens WHERE namespace = $1 AND session_id NOT IN
             (SELECT session_id FROM final_screens WHERE namespace = $1 ORDER BY saved_at DESC, session_id LIMIT $2)`,
          [namespace, keep],
        );
      });
    },
    async getFinalScreen({ namespace, sessionId }) {
      const row = await first(db, `SELECT * FROM final_screens WHERE namespace = $1 AND session_id = $2`, [namespace, sessionId]);
      if (!row) return null;
      return { offset: Number(row.offset), cols: Number(row.cols), rows: Number(row.rows), data: String(row.data), savedAt: Number(row.saved_at) };
    },
    async deleteFinalScreen({ namespace, sessionId }) {
      await db.run(`DELETE FROM final_screens WHERE namespace = $1 AND session_id = $2`, [namespace, sessionId]);
    },
  };
}
