// sessions.ts (queries): session records, registered by their runner (again after every reconnect),
// patched while they run, ended once. Another namespace's session answers like a missing one.
import type { Namespace, Session } from '@tether/shared';
import { isFinalStatus } from '@tether/shared';
import type { RegisterSessionResult, Store } from '../store.ts';
import { first, type SqlDriver, type SqlRunner } from '../sql/driver.ts';
import { addedDirsJson, capabilitiesJson, rowToSession, SESSION_PATCH_COLUMNS, sessionPatchValue } from '../rows.ts';
import { ARCHIVABLE_STATUSES, DROPPED_ON_END, UNSENT_PROMPT_STATUSES } from '../rules.ts';

export const SESSION_COLUMNS = `s.*, (SELECT COUNT(*) FROM requests r WHERE r.session_id = s.id AND r.resolved_at IS NULL) AS pending_count`;

/** The session, if it is in this namespace. */
export async function sessionIn(runner: SqlRunner, namespace: Namespace, id: string): Promise<Session | null> {
  const row = await first(runner, `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = $1 AND s.namespace = $2`, [id, namespace]);
  return row ? rowToSession(row) : null;
}

type SessionQueries = Pick<Store, 'registerSession' | 'getSession' | 'listSessions' | 'updateSession' | 'endSession' | 'pinSession' | 'archiveSession' | 'setSessionWorktree'>;

export function sessionQueries(db: SqlDriver): SessionQueries {
  return {
    async registerSession({ namespace, registration: r, now }) {
      return db.transaction(async (tx): Promise<RegisterSessionResult> => {
        const final = isFinalStatus(r.status);
        const inserted = await tx.run(
          `INSERT INTO sessions (id, namespace, machine_id, title, cwd, launch_kind, status, agent_session_id, model,
             permission_mode, controller, desk_attached, failure_reason, exit_code, last_seq, created_at, updated_at, ended_at, agent, capabilities, added_dirs)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, NULL, NULL, 0, $12, $13, $14, $15, $16, $17)
           ON CONFLICT (id) DO NOTHING`,
          [r.id, namespace, r.machineId, r.title, r.cwd, r.launchKind, r.status, r.agentSessionId, r.model, r.permissionMode, r.deskAttached, r.createdAt ?? now, now, final ? now : null, r.agent, capabilitiesJson(r.capabilities), addedDirsJson(r.addedDirs)],
        );
        if (inserted === 0) {
          const owner = await first(tx, `SELECT namespace FROM sessions WHERE id = $1${db.lockRows}`, [r.id]);
          if (!owner || owner.namespace !== namespace) return { kind: 'forbidden' };
          // Re-registration after a reconnect: refresh what the runner knows, keep messages and seq.
          await tx.run(
            `UPDATE sessions SET machine_id = $2, title = $3, cwd = $4, launch_kind = $5, status = $6, agent_session_id = $7,
               model = $8, permission_mode = $9, desk_attached = $10, updated_at = $11,
               ended_at = CASE WHEN $12 THEN COALESCE(ended_at, $11) ELSE NULL END,
               failure_reason = CASE WHEN $12 THEN failure_reason ELSE NULL END,
               exit_code = CASE WHEN $12 THEN exit_code ELSE NULL END,
               archived_at = CASE WHEN $12 THEN archived_at ELSE NULL END,
               agent = $13, capabilities = $14, added_dirs = $15
             WHERE id = $1`,
            [r.id, r.machineId, r.title, r.cwd, r.launchKind, r.status, r.agentSessionId, r.model, r.permissionMode, r.deskAttached, now, final, r.agent, capabilitiesJson(r.capabilities), addedDirsJson(r.addedDirs)],
          );
        }
        return { kind: 'ok', session: (await sessionIn(tx, namespace, r.id))!, created: inserted > 0 };
      });
    },
    async getSession({ namespace, sessionId }) {
      return sessionIn(db, namespace, sessionId);
    },
    async listSessions({ namespace }) {
      const rows = await db.all(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.namespace = $1 ORDER BY s.updated_at DESC, s.id`, [namespace]);
      return rows.map(rowToSession);
    },
    async updateSession({ namespace, sessionId, patch, now }) {
      const values: unknown[] = [sessionId, namespace, now];
      const sets = ['updated_at = $3'];
      for (const [key, column] of SESSION_PATCH_COLUMNS) {
        const value = patch[key];
        if (value === undefined) continue;
        values.push(sessionPatchValue(key, value));
        sets.push(`${column} = $${values.length}`);
      }
      // A patch's status is never final: the session runs, so it is not archived (rules.ts).
      if (patch.status !== undefined) sets.push('archived_at = NULL');
      const changed = await db.run(`UPDATE sessions SET ${sets.join(', ')} WHERE id = $1 AND namespace = $2`, values);
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async pinSession({ namespace, sessionId, pinned, now }) {
      // A repeated pin keeps its first time, so the pinned order does not move; pinning unarchives.
      const changed = await db.run(
        `UPDATE sessions SET pinned_at = CASE WHEN $3 THEN COALESCE(pinned_at, $4) ELSE NULL END,
           archived_at = CASE WHEN $3 THEN NULL ELSE archived_at END, updated_at = $4
         WHERE id = $1 AND namespace = $2`,
        [sessionId, namespace, pinned, now],
      );
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async setSessionWorktree({ namespace, sessionId, worktree, now }) {
      // Set by the hub only (a spawn's ack, a removal); a runner's registration never touches it.
      const changed = await db.run(`UPDATE sessions SET worktree = $3, updated_at = $4 WHERE id = $1 AND namespace = $2`, [sessionId, namespace, JSON.stringify(worktree), now]);
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async archiveSession({ namespace, sessionId, archived, now }) {
      return db.transaction(async (tx) => {
        // The status test is in the statement itself: a session resumed a moment ago is refused
        // here, never archived while it runs.
        const statuses = ARCHIVABLE_STATUSES.map((_, i) => `$${i + 4}`).join(', ');
        const changed = archived
          ? await tx.run(
              `UPDATE sessions SET archived_at = COALESCE(archived_at, $3), pinned_at = NULL, updated_at = $3
               WHERE id = $1 AND namespace = $2 AND status IN (${statuses})`,
              [sessionId, namespace, now, ...ARCHIVABLE_STATUSES],
            )
          : await tx.run(`UPDATE sessions SET archived_at = NULL, updated_at = $3 WHERE id = $1 AND namespace = $2`, [sessionId, namespace, now]);
        const session = await sessionIn(tx, namespace, sessionId);
        if (!session) return { kind: 'not_found' } as const;
        return changed > 0 ? ({ kind: 'ok', session } as const) : ({ kind: 'live', session } as const);
      });
    },
    async endSession({ namespace, sessionId, status, exitCode, reason, now }) {
      return db.transaction(async (tx) => {
        const changed = await tx.run(
          `UPDATE sessions SET status = $3, exit_code = $4, failure_reason = $5, updated_at = $6, ended_at = COALESCE(ended_at, $6)
           WHERE id = $1 AND namespace = $2`,
          [sessionId, namespace, status, exitCode, reason, now],
        );
        if (changed === 0) return null;
        const unsent = UNSENT_PROMPT_STATUSES.map((_, i) => `$${i + 5}`).join(', ');
        await tx.run(`UPDATE prompts SET status = $2, reason = $3, updated_at = $4 WHERE session_id = $1 AND status IN (${unsent})`, [
          sessionId,
          DROPPED_ON_END.status,
          DROPPED_ON_END.reason,
          now,
          ...UNSENT_PROMPT_STATUSES,
        ]);
        return sessionIn(tx, namespace, sessionId);
      });
    },
  };
}
