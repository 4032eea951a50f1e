// prompts.ts (queries): prompts queued from the phone for a session, idempotent by id.
import { WITHDRAWN_REASON } from '@tether/shared';
import type { AddPromptResult, ChangeHeldPromptResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToPrompt } from '../rows.ts';
import { sessionIn } from './sessions.ts';

export function promptQueries(db: SqlDriver): Pick<Store, 'addPrompt' | 'updatePrompt' | 'listPrompts' | 'handOverPrompts' | 'changeHeldPrompt' | 'dropPromptsOfTokens'> {
  return {
    async addPrompt({ namespace, prompt, creatorTokenId }) {
      return db.transaction(async (tx): Promise<AddPromptResult> => {
        if (!(await sessionIn(tx, namespace, prompt.sessionId))) return { kind: 'not_found' };
        const inserted = await tx.run(
          `INSERT INTO prompts (id, namespace, session_id, text, status, reason, created_at, updated_at, attachments, creator_token_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
           ON CONFLICT (id) DO NOTHING`,
          [
            prompt.id,
            namespace,
            prompt.sessionId,
            prompt.text,
            prompt.status,
            prompt.reason,
            prompt.createdAt,
            prompt.updatedAt,
            prompt.attachments.length > 0 ? JSON.stringify(prompt.attachments) : null,
            creatorTokenId ?? null,
          ],
        );
        if (inserted > 0) return { kind: 'added', prompt };
        const row = await first(tx, `SELECT * FROM prompts WHERE id = $1`, [prompt.id]);
        if (!row || row.namespace !== namespace || row.session_id !== prompt.sessionId) return { kind: 'not_found' };
        return { kind: 'exists', prompt: rowToPrompt(row) };
      });
    },
    async updatePrompt({ namespace, sessionId, promptId, status, reason, now }) {
      const row = await first(
        db,
        `UPDATE prompts SET status = $4, reason = $5, updated_at = $6 WHERE id = $1 AND namespace = $2 AND session_id = $3 RETURNING *`,
        [promptId, namespace, sessionId, status, reason, now],
      );
      return row ? rowToPrompt(row) : null;
    },
    async listPrompts({ namespace, sessionId, status }) {
      const rows = status
        ? await db.all(`SELECT * FROM prompts WHERE namespace = $1 AND session_id = $2 AND status = $3 ORDER BY created_at, id`, [namespace, sessionId, status])
        : await db.all(`SELECT * FROM prompts WHERE namespace = $1 AND session_id = $2 ORDER BY created_at, id`, [namespace, sessionId]);
      return rows.map(rowToPrompt);
    },
    async dropPromptsOfTokens({ namespace, tokenIds, reason, now }) {
      if (tokenIds.length === 0) return [];
      const ids = tokenIds.map((_, i) => `$${i + 4}`).join(', ');
      const rows = await db.all(
        `UPDATE prompts SET status = 'dropped', reason = $2, updated_at = $3 WHERE namespace = $1 AND status = 'queued' AND handed_at IS NULL AND creator_token_id IN (${ids}) RETURNING *`,
        [namespace, reason, now, ...tokenIds],
      );
      return rows.map(rowToPrompt);
    },
    // Hand-over and change are each one conditional UPDATE on the row: SQLite runs one writer at a
    // time, and PostgreSQL re-checks the WHERE of the second of two racing UPDATEs against the row the
    // first committed. So either the edit lands first and is what is handed, or the hand-over lands
    // first and the edit is refused; never both, never neither.
    async handOverPrompts({ namespace, sessionId, promptId, now }) {
      const rows = await db.all(
        // A prompt whose sender was revoked is never handed over (revoked through another hub, the
        // drop may not have reached this row yet).
        `UPDATE prompts SET handed_at = COALESCE(handed_at, $3) WHERE namespace = $1 AND session_id = $2 AND status = 'queued'${promptId === undefined ? '' : ' AND id = $4'}
           AND NOT EXISTS (SELECT 1 FROM tokens WHERE tokens.id = prompts.creator_token_id AND tokens.revoked_at IS NOT NULL) RETURNING *`,
        promptId === undefined ? [namespace, sessionId, now] : [namespace, sessionId, now, promptId],
      );
      return rows.map(rowToPrompt).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    async changeHeldPrompt({ namespace, sessionId, promptId, change, now }): Promise<ChangeHeldPromptResult> {
      const held = `WHERE id = $1 AND namespace = $2 AND session_id = $3 AND status = 'queued' AND handed_at IS NULL RETURNING *`;
      const row =
        change.kind === 'edit'
          ? await first(db, `UPDATE prompts SET text = $4, updated_at = $5 ${held}`, [promptId, namespace, sessionId, change.text, now])
          : await first(db, `UPDATE prompts SET status = 'dropped', reason = $4, updated_at = $5 ${held}`, [promptId, namespace, sessionId, WITHDRAWN_REASON, now]);
      if (row) return { kind: 'changed', prompt: rowToPrompt(row) };
      const current = await first(db, `SELECT * FROM prompts WHERE id = $1 AND namespace = $2 AND session_id = $3`, [promptId, namespace, sessionId]);
      return current ? { kind: 'not_held', prompt: rowToPrompt(current) } : { kind: 'not_found' };
    },
  };
}
