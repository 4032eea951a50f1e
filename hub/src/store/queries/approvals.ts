// approvals.ts (queries): pending requests and, in the same row once resolved, their resolution (the
// audit trail). First answer wins, across hubs: the conditional UPDATE … WHERE resolved_at IS NULL is
// the guard, never the read before it; whoever it finds already answered is told the winner's answer.
import { DESK_ANSWERER } from '@tether/shared';
import type { AddRequestResult, ResolveRequestResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToRequest, rowToResolution, type Row } from '../rows.ts';
import { waitedMs } from '../rules.ts';

type ApprovalQueries = Pick<Store, 'addRequest' | 'listPending' | 'getPending' | 'resolveRequest' | 'recordDialogOutcome' | 'listAudit'>;

const REQUEST_BY_ID = `SELECT * FROM requests WHERE id = $1`;

export function approvalQueries(db: SqlDriver): ApprovalQueries {
  /** The request, if it is this namespace's (and this session's, when one is named). */
  const visible = (row: Row | null, namespace: string, sessionId: string | undefined): row is Row =>
    row !== null && row.namespace === namespace && (sessionId === undefined || row.session_id === sessionId);

  return {
    async addRequest({ namespace, request }) {
      return db.transaction(async (tx): Promise<AddRequestResult> => {
        // Only whether it is there: the request is on its way to the phone, and a session read back whole costs more.
        if (!(await first(tx, 'SELECT 1 AS here FROM sessions WHERE id = $1 AND namespace = $2', [request.sessionId, namespace]))) return { kind: 'not_found' };
        const inserted = await first(
          tx,
          `INSERT INTO requests (id, namespace, session_id, kind, tool_name, tool_input, tool_use_id, created_at, asked_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (id) DO NOTHING RETURNING *`,
          [request.id, namespace, request.sessionId, request.kind, request.toolName, JSON.stringify(request.toolInput), request.toolUseId, request.createdAt, request.askedBy ? JSON.stringify(request.askedBy) : null],
        );
        if (inserted) return { kind: 'added', request: rowToRequest(inserted) };
        const row = await first(tx, REQUEST_BY_ID, [request.id]);
        if (!visible(row, namespace, request.sessionId)) return { kind: 'not_found' };
        const stored = rowToRequest(row);
        if (row.resolved_at == null) return { kind: 'pending', request: stored };
        return { kind: 'resolved', request: stored, resolution: rowToResolution(row) };
      });
    },
    async listPending({ namespace, sessionId }) {
      const rows = await db.all(`SELECT * FROM requests WHERE namespace = $1 AND session_id = $2 AND resolved_at IS NULL ORDER BY created_at, id`, [namespace, sessionId]);
      return rows.map(rowToRequest);
    },
    async getPending({ namespace, requestId }) {
      const row = await first(db, REQUEST_BY_ID, [requestId]);
      return visible(row, namespace, undefined) && row.resolved_at == null ? rowToRequest(row) : null;
    },
    async resolveRequest({ namespace, requestId, sessionId, outcome, answer, answeredBy, device, at }): Promise<ResolveRequestResult> {
      const row = await first(db, REQUEST_BY_ID, [requestId]);
      if (!visible(row, namespace, sessionId)) return { kind: 'not_found' };
      if (row.resolved_at != null) return { kind: 'already', resolution: rowToResolution(row) };
      const waited = waitedMs({ createdAt: Number(row.created_at), at });
      const updated = await first(
        db,
        `UPDATE requests SET outcome = $2, answer = $3, answered_by = $4, device = $5, waited_ms = $6, resolved_at = $7
         WHERE id = $1 AND resolved_at IS NULL RETURNING *`,
        [requestId, outcome, answer === null ? null : JSON.stringify(answer), answeredBy, device, waited, at],
      );
      if (updated) return { kind: 'resolved', request: rowToRequest(updated), resolution: rowToResolution(updated) };
      // Another answer won between the read and the update.
      return { kind: 'already', resolution: rowToResolution((await first(db, REQUEST_BY_ID, [requestId]))!) };
    },
    async recordDialogOutcome({ namespace, sessionId, requestId, answer }) {
      // Only an entry the desk took to claude's dialog (answered, by the desk, no answer yet).
      const row = await first(
        db,
        `UPDATE requests SET answer = $5 WHERE id = $1 AND namespace = $2 AND session_id = $3
           AND outcome = 'answered' AND answered_by = $4 AND answer IS NULL AND resolved_at IS NOT NULL
         RETURNING *`,
        [requestId, namespace, sessionId, DESK_ANSWERER, JSON.stringify(answer)],
      );
      return row ? rowToResolution(row) : null;
    },
    async listAudit({ namespace, sessionId, limit }) {
      const rows = await db.all(
        `SELECT * FROM requests WHERE namespace = $1 AND session_id = $2 AND resolved_at IS NOT NULL ORDER BY resolved_at DESC, id LIMIT $3`,
        [namespace, sessionId, limit],
      );
      return rows.map(rowToResolution);
    },
  };
}
