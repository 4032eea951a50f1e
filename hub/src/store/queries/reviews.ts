// reviews.ts (queries): review records (shared reviews.ts), one per reviewer session, and the
// reviewer session's parent link, written together. Another namespace's review answers like a
// missing one; a review is only ever between two sessions of one namespace.
import { ReviewStateSchema, AgentKindSchema, type Review } from '@tether/shared';
import type { AddReviewResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import type { Row } from '../rows.ts';
import { sessionIn } from './sessions.ts';

function rowToReview(row: Row): Review {
  return {
    id: row.id as string,
    parentId: row.parent_id as string,
    // A value this hub does not know (a newer hub's row) reads as the default rather than failing the card.
    agent: AgentKindSchema.catch('claude').parse(row.agent),
    state: ReviewStateSchema.catch('ended').parse(row.state),
    focus: row.focus as string,
    finalAnswer: (row.final_answer as string | null) ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

type ReviewQueries = Pick<Store, 'addReview' | 'getReview' | 'listReviews' | 'updateReview'>;

export function reviewQueries(db: SqlDriver): ReviewQueries {
  const get = async (namespace: string, reviewId: string) => {
    const row = await first(db, `SELECT * FROM reviews WHERE id = $1 AND namespace = $2`, [reviewId, namespace]);
    return row ? rowToReview(row) : null;
  };
  return {
    async addReview({ namespace, review: r }) {
      return db.transaction(async (tx): Promise<AddReviewResult> => {
        if (!(await sessionIn(tx, namespace, r.id)) || !(await sessionIn(tx, namespace, r.parentId))) return { kind: 'not_found' };
        const inserted = await tx.run(
          `INSERT INTO reviews (id, namespace, parent_id, agent, state, focus, final_answer, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
          [r.id, namespace, r.parentId, r.agent, r.state, r.focus, r.finalAnswer, r.createdAt, r.updatedAt],
        );
        const row = await first(tx, `SELECT * FROM reviews WHERE id = $1 AND namespace = $2`, [r.id, namespace]);
        if (inserted === 0) return row ? { kind: 'exists', review: rowToReview(row) } : { kind: 'not_found' };
        await tx.run(`UPDATE sessions SET parent_id = $3 WHERE id = $1 AND namespace = $2`, [r.id, namespace, r.parentId]);
        return { kind: 'added', review: rowToReview(row!) };
      });
    },
    getReview: ({ namespace, reviewId }) => get(namespace, reviewId),
    async listReviews({ namespace, parentId }) {
      const rows = await db.all(`SELECT * FROM reviews WHERE parent_id = $1 AND namespace = $2 ORDER BY created_at, id`, [parentId, namespace]);
      return rows.map(rowToReview);
    },
    async updateReview({ namespace, reviewId, state, finalAnswer, now }) {
      const changed =
        finalAnswer === undefined
          ? await db.run(`UPDATE reviews SET state = $3, updated_at = $4 WHERE id = $1 AND namespace = $2`, [reviewId, namespace, state, now])
          : await db.run(`UPDATE reviews SET state = $3, final_answer = $5, updated_at = $4 WHERE id = $1 AND namespace = $2`, [reviewId, namespace, state, now, finalAnswer]);
      return changed > 0 ? get(namespace, reviewId) : null;
    },
  };
}
