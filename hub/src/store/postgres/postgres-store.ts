// postgres-store.ts: the Store on PostgreSQL (`pg` Pool), for several hubs on one database.
// Invariants, as in SQLite but across processes:
//  - seq: appendMessages locks the session row (SELECT … FOR UPDATE) for its transaction, so two
//    hubs appending to one session never share a seq;
//  - first answer wins: resolveRequest is one conditional UPDATE … WHERE resolved_at IS NULL;
//  - every multi-statement change is one transaction; ids inserted concurrently are settled by
//    ON CONFLICT, never by read-then-insert.
import pg from 'pg';
import type { ChatMessage, Session } from '@tether/shared';
import { DESK_ANSWERER, isFinalStatus } from '@tether/shared';
import type { AddPromptResult, AddRequestResult, AppendMessagesResult, MessagePageResult, RegisterSessionResult, ResolveRequestResult, Store } from '../store.ts';
import { rowToMachine, rowToMessage, rowToPrompt, rowToRequest, rowToResolution, rowToSession, rowToShareLink, rowToToken, SESSION_PATCH_COLUMNS, tokenInfo, type Row } from '../rows.ts';
import { migratePostgres } from './migrate.ts';
import { connectionError, redactUrl } from './connect.ts';

/** Connections per hub: socket handlers are short queries; more would only queue in PostgreSQL. */
const POOL_MAX = 10;
/** An unreachable host fails the start in this time instead of hanging. */
const CONNECT_TIMEOUT_MS = 10_000;
/** int8 (BIGINT, COUNT(*)): epoch milliseconds and counts all fit a JS number exactly. */
const INT8_OID = 20;

const SESSION_COLUMNS = `s.*, (SELECT COUNT(*) FROM requests r WHERE r.session_id = s.id AND r.resolved_at IS NULL) AS pending_count`;

type Query = (text: string, values?: unknown[]) => Promise<Row[]>;
type Client = { query: Query; changed: (text: string, values?: unknown[]) => Promise<number> };

export async function createPostgresStore(options: { url: string }): Promise<Store> {
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: options.url, max: POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types });
  } catch (error) {
    throw connectionError(options.url, error);
  }
  // A dropped idle connection must not crash the hub; the pool makes a new one on the next query.
  pool.on('error', (error) => console.error(`tether hub: database connection (${redactUrl(options.url)}): ${error.message}`));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectionError(options.url, error);
  }

  const wrap = (runner: { query: pg.Pool['query'] }): Client => ({
    query: async (text, values) => (await runner.query(text, values)).rows as Row[],
    changed: async (text, values) => (await runner.query(text, values)).rowCount ?? 0,
  });
  const db = wrap(pool);

  /** Runs `work` in one transaction on one connection; rolls back on any error. */
  const tx = async <T>(work: (c: Client) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(wrap(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  };

  const sessionIn = async (c: Client, ns: string, id: string): Promise<Session | null> => {
    const rows = await c.query(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = $1 AND s.namespace = $2`, [id, ns]);
    return rows[0] ? rowToSession(rows[0]) : null;
  };
  const one = async (c: Client, text: string, values: unknown[]): Promise<Row | null> => (await c.query(text, values))[0] ?? null;

  const store: Store = {
    async insertToken({ token }) {
      await db.query(
        `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [token.id, token.namespace, token.hash, token.label, token.createdAt, token.lastUsedAt, token.revokedAt],
      );
    },
    async findTokenByHash({ hash }) {
      const row = await one(db, `SELECT * FROM tokens WHERE hash = $1`, [hash]);
      return row ? rowToToken(row) : null;
    },
    async getToken({ id }) {
      const row = await one(db, `SELECT * FROM tokens WHERE id = $1`, [id]);
      return row ? rowToToken(row) : null;
    },
    async listTokens(options) {
      const rows = options?.namespace
        ? await db.query(`SELECT * FROM tokens WHERE namespace = $1 ORDER BY created_at, id`, [options.namespace])
        : await db.query(`SELECT * FROM tokens ORDER BY created_at, id`);
      return rows.map((r) => tokenInfo(rowToToken(r)));
    },
    async revokeToken({ id, at }) {
      return (await db.changed(`UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at])) > 0;
    },
    async touchToken({ id, at }) {
      await db.query(`UPDATE tokens SET last_used_at = $2 WHERE id = $1`, [id, at]);
    },

    async insertShareLink({ link }) {
      await db.query(
        `INSERT INTO share_links (jti, namespace, session_id, created_by, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [link.jti, link.namespace, link.sessionId, link.createdBy, link.createdAt, link.expiresAt, link.revokedAt],
      );
    },
    async getShareLink({ jti }) {
      const row = await one(db, `SELECT * FROM share_links WHERE jti = $1`, [jti]);
      if (!row) return null;
      return rowToShareLink(row);
    },
    async revokeShareLink({ namespace, sessionId, jti, at }) {
      const changed = await db.changed(
        `UPDATE share_links SET revoked_at = $4 WHERE jti = $1 AND namespace = $2 AND session_id = $3 AND revoked_at IS NULL`,
        [jti, namespace, sessionId, at],
      );
      return changed > 0;
    },

    async saveFinalScreen({ namespace, sessionId, screen, keep }) {
      await tx(async (c) => {
        await c.query(
          `INSERT INTO final_screens (namespace, session_id, "offset", cols, "rows", data, saved_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (namespace, session_id) DO UPDATE SET "offset" = $3, cols = $4, "rows" = $5, data = $6, saved_at = $7`,
          [namespace, sessionId, screen.offset, screen.cols, screen.rows, screen.data, screen.savedAt],
        );
        await c.query(
          `DELETE FROM final_screens WHERE namespace = $1 AND session_id NOT IN
             (SELECT session_id FROM final_screens WHERE namespace = $1 ORDER BY saved_at DESC, session_id LIMIT $2)`,
          [namespace, keep],
        );
      });
    },
    async getFinalScreen({ namespace, sessionId }) {
      const row = await one(db, `SELECT * FROM final_screens WHERE namespace = $1 AND session_id = $2`, [namespace, sessionId]);
      if (!row) return null;
      return { offset: Number(row.offset), cols: Number(row.cols), rows: Number(row.rows), data: String(row.data), savedAt: Number(row.saved_at) };
    },
    async deleteFinalScreen({ namespace, sessionId }) {
      await db.query(`DELETE FROM final_screens WHERE namespace = $1 AND session_id = $2`, [namespace, sessionId]);
    },

    async registerSession({ namespace, registration: r, now }) {
      return tx(async (c): Promise<RegisterSessionResult> => {
        const final = isFinalStatus(r.status);
        const inserted = await c.changed(
          `INSERT INTO sessions (id, namespace, machine_id, title, cwd, launch_kind, status, claude_session_id, model,
             permission_mode, controller, desk_attached, failure_reason, exit_code, last_seq, created_at, updated_at, ended_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, NULL, NULL, 0, $12, $13, $14)
           ON CONFLICT (id) DO NOTHING`,
          [r.id, namespace, r.machineId, r.title, r.cwd, r.launchKind, r.status, r.claudeSessionId, r.model, r.permissionMode, r.deskAttached, r.createdAt ?? now, now, final ? now : null],
        );
        if (inserted === 0) {
          const owner = await one(c, `SELECT namespace FROM sessions WHERE id = $1 FOR UPDATE`, [r.id]);
          if (!owner || owner.namespace !== namespace) return { kind: 'forbidden' };
          // Re-registration after a reconnect: refresh what the runner knows, keep messages and seq.
          await c.query(
            `UPDATE sessions SET machine_id = $2, title = $3, cwd = $4, launch_kind = $5, status = $6, claude_session_id = $7,
               model = $8, permission_mode = $9, desk_attached = $10, updated_at = $11,
               ended_at = CASE WHEN $12 THEN COALESCE(ended_at, $11) ELSE NULL END,
               failure_reason = CASE WHEN $12 THEN failure_reason ELSE NULL END,
               exit_code = CASE WHEN $12 THEN exit_code ELSE NULL END
             WHERE id = $1`,
            [r.id, r.machineId, r.title, r.cwd, r.launchKind, r.status, r.claudeSessionId, r.model, r.permissionMode, r.deskAttached, now, final],
          );
        }
        return { kind: 'ok', session: (await sessionIn(c, namespace, r.id))!, created: inserted > 0 };
      });
    },
    async getSession({ namespace, sessionId }) {
      return sessionIn(db, namespace, sessionId);
    },
    async listSessions({ namespace }) {
      const rows = await db.query(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.namespace = $1 ORDER BY s.updated_at DESC, s.id`, [namespace]);
      return rows.map(rowToSession);
    },
    async updateSession({ namespace, sessionId, patch, now }) {
      const values: unknown[] = [sessionId, namespace, now];
      const sets = ['updated_at = $3'];
      for (const [key, column] of SESSION_PATCH_COLUMNS) {
        const value = patch[key];
        if (value === undefined) continue;
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      }
      const changed = await db.changed(`UPDATE sessions SET ${sets.join(', ')} WHERE id = $1 AND namespace = $2`, values);
      return changed > 0 ? sessionIn(db, namespace, sessionId) : null;
    },
    async endSession({ namespace, sessionId, status, exitCode, reason, now }) {
      return tx(async (c) => {
        const changed = await c.changed(
          `UPDATE sessions SET status = $3, exit_code = $4, failure_reason = $5, updated_at = $6, ended_at = COALESCE(ended_at, $6)
           WHERE id = $1 AND namespace = $2`,
          [sessionId, namespace, status, exitCode, reason, now],
        );
        if (changed === 0) return null;
        // Prompts that never reached claude will not now.
        await c.query(
          `UPDATE prompts SET status = 'dropped', reason = 'session ended', updated_at = $2
           WHERE session_id = $1 AND status IN ('queued', 'waiting_for_desk', 'typing')`,
          [sessionId, now],
        );
        return sessionIn(c, namespace, sessionId);
      });
    },

    async appendMessages({ namespace, sessionId, messages }) {
      return tx(async (c): Promise<AppendMessagesResult | null> => {
        // The row lock orders concurrent appends to one session (from any hub).
        const owner = await one(c, `SELECT namespace, last_seq FROM sessions WHERE id = $1 FOR UPDATE`, [sessionId]);
        if (!owner || owner.namespace !== namespace) return null;
        let seq = Number(owner.last_seq);
        const added: ChatMessage[] = [];
        const seqs: number[] = [];
        for (const message of messages) {
          const existing = await one(c, `SELECT seq FROM messages WHERE session_id = $1 AND id = $2`, [sessionId, message.id]);
          if (existing) {
            seqs.push(Number(existing.seq));
            continue;
          }
          seq += 1;
          await c.query(`INSERT INTO messages (session_id, seq, id, json) VALUES ($1, $2, $3, $4)`, [sessionId, seq, message.id, JSON.stringify(message)]);
          added.push({ ...message, sessionId, seq });
          seqs.push(seq);
        }
        if (added.length > 0) {
          await c.query(`UPDATE sessions SET last_seq = $2, updated_at = GREATEST(updated_at, $3) WHERE id = $1`, [sessionId, seq, Date.now()]);
        }
        return { added, seqs, lastSeq: seq };
      });
    },
    async listMessages({ namespace, sessionId, after, before, limit }) {
      if (!(await sessionIn(db, namespace, sessionId))) return null;
      let rows: Row[];
      let more: boolean;
      if (after !== undefined) {
        rows = await db.query(`SELECT seq, json FROM messages WHERE session_id = $1 AND seq > $2 ORDER BY seq ASC LIMIT $3`, [sessionId, after, limit + 1]);
        more = rows.length > limit;
        rows = rows.slice(0, limit);
      } else {
        const bound = before ?? Number.MAX_SAFE_INTEGER;
        rows = await db.query(`SELECT seq, json FROM messages WHERE session_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3`, [sessionId, bound, limit + 1]);
        more = rows.length > limit;
        rows = rows.slice(0, limit).reverse();
      }
      const page: MessagePageResult = { messages: rows.map((r) => rowToMessage(r, sessionId)), more };
      return page;
    },

    async upsertMachine({ namespace, machine, now }) {
      const row = await one(
        db,
        `INSERT INTO machines (namespace, id, name, os, "user", home, online, last_seen_at, shell) VALUES ($1, $2, $3, $4, $5, $6, TRUE, $7, $8)
         ON CONFLICT (namespace, id) DO UPDATE SET name = $3, os = $4, "user" = $5, home = $6, online = TRUE, last_seen_at = $7, shell = $8
         RETURNING *`,
        [namespace, machine.id, machine.name, machine.os, machine.user, machine.home, now, machine.shell ?? false],
      );
      return rowToMachine(row!);
    },
    async setMachineOnline({ namespace, machineId, online, now }) {
      const row = await one(db, `UPDATE machines SET online = $3, last_seen_at = $4 WHERE namespace = $1 AND id = $2 RETURNING *`, [namespace, machineId, online, now]);
      return row ? rowToMachine(row) : null;
    },
    async listMachines({ namespace }) {
      return (await db.query(`SELECT * FROM machines WHERE namespace = $1 ORDER BY name, id`, [namespace])).map(rowToMachine);
    },

    async addRequest({ namespace, request }) {
      return tx(async (c): Promise<AddRequestResult> => {
        if (!(await sessionIn(c, namespace, request.sessionId))) return { kind: 'not_found' };
        const inserted = await one(
          c,
          `INSERT INTO requests (id, namespace, session_id, kind, tool_name, tool_input, tool_use_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO NOTHING RETURNING *`,
          [request.id, namespace, request.sessionId, request.kind, request.toolName, JSON.stringify(request.toolInput), request.toolUseId, request.createdAt],
        );
        if (inserted) return { kind: 'added', request: rowToRequest(inserted) };
        const row = await one(c, `SELECT * FROM requests WHERE id = $1`, [request.id]);
        if (!row || row.namespace !== namespace || row.session_id !== request.sessionId) return { kind: 'not_found' };
        const stored = rowToRequest(row);
        if (row.resolved_at == null) return { kind: 'pending', request: stored };
        return { kind: 'resolved', request: stored, resolution: rowToResolution(row) };
      });
    },
    async listPending({ namespace, sessionId }) {
      const rows = await db.query(
        `SELECT * FROM requests WHERE namespace = $1 AND session_id = $2 AND resolved_at IS NULL ORDER BY created_at, id`,
        [namespace, sessionId],
      );
      return rows.map(rowToRequest);
    },
    async resolveRequest({ namespace, requestId, sessionId, outcome, answer, answeredBy, device, at }): Promise<ResolveRequestResult> {
      // First answer wins across hubs: the WHERE is the guard, not an earlier read.
      const updated = await one(
        db,
        `UPDATE requests SET outcome = $4, answer = $5, answered_by = $6, device = $7, waited_ms = GREATEST(0, $8 - created_at), resolved_at = $8
         WHERE id = $1 AND namespace = $2 AND ($3::text IS NULL OR session_id = $3) AND resolved_at IS NULL
         RETURNING *`,
        [requestId, namespace, sessionId ?? null, outcome, answer === null ? null : JSON.stringify(answer), answeredBy, device, at],
      );
      if (updated) return { kind: 'resolved', request: rowToRequest(updated), resolution: rowToResolution(updated) };
      const row = await one(db, `SELECT * FROM requests WHERE id = $1`, [requestId]);
      if (!row || row.namespace !== namespace) return { kind: 'not_found' };
      if (sessionId !== undefined && row.session_id !== sessionId) return { kind: 'not_found' };
      return { kind: 'already', resolution: rowToResolution(row) };
    },
    async recordDialogOutcome({ namespace, sessionId, requestId, answer }) {
      // Only an entry the desk took to claude's dialog (answered, by the desk, no answer yet).
      const row = await one(
        db,
        `UPDATE requests SET answer = $5 WHERE id = $1 AND namespace = $2 AND session_id = $3
           AND outcome = 'answered' AND answered_by = $4 AND answer IS NULL AND resolved_at IS NOT NULL
         RETURNING *`,
        [requestId, namespace, sessionId, DESK_ANSWERER, JSON.stringify(answer)],
      );
      return row ? rowToResolution(row) : null;
    },
    async listAudit({ namespace, sessionId, limit }) {
      const rows = await db.query(
        `SELECT * FROM requests WHERE namespace = $1 AND session_id = $2 AND resolved_at IS NOT NULL ORDER BY resolved_at DESC, id LIMIT $3`,
        [namespace, sessionId, limit],
      );
      return rows.map(rowToResolution);
    },

    async addPrompt({ namespace, prompt }) {
      return tx(async (c): Promise<AddPromptResult> => {
        if (!(await sessionIn(c, namespace, prompt.sessionId))) return { kind: 'not_found' };
        const inserted = await c.changed(
          `INSERT INTO prompts (id, namespace, session_id, text, status, reason, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO NOTHING`,
          [prompt.id, namespace, prompt.sessionId, prompt.text, prompt.status, prompt.reason, prompt.createdAt, prompt.updatedAt],
        );
        if (inserted > 0) return { kind: 'added', prompt };
        const row = await one(c, `SELECT * FROM prompts WHERE id = $1`, [prompt.id]);
        if (!row || row.namespace !== namespace || row.session_id !== prompt.sessionId) return { kind: 'not_found' };
        return { kind: 'exists', prompt: rowToPrompt(row) };
      });
    },
    async updatePrompt({ namespace, sessionId, promptId, status, reason, now }) {
      const row = await one(
        db,
        `UPDATE prompts SET status = $4, reason = $5, updated_at = $6 WHERE id = $1 AND namespace = $2 AND session_id = $3 RETURNING *`,
        [promptId, namespace, sessionId, status, reason, now],
      );
      return row ? rowToPrompt(row) : null;
    },
    async listPrompts({ namespace, sessionId, status }) {
      const rows = status
        ? await db.query(`SELECT * FROM prompts WHERE namespace = $1 AND session_id = $2 AND status = $3 ORDER BY created_at, id`, [namespace, sessionId, status])
        : await db.query(`SELECT * FROM prompts WHERE namespace = $1 AND session_id = $2 ORDER BY created_at, id`, [namespace, sessionId]);
      return rows.map(rowToPrompt);
    },

    async close() {
      await pool.end();
    },
  };
  return store;
}
