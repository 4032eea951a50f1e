// sqlite-store.ts: the Store on bun:sqlite. One file per hub (<TETHER_HOME>/hub.sqlite), WAL so that
// `tether token …` can write while the hub runs, foreign keys on, numbered migrations.
// Invariant: every multi-statement change runs in one transaction (seq assignment, first answer
// wins), so a crash never leaves a half-applied change and two writers never share a seq.
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { Database } from 'bun:sqlite';
import type { ChatMessage, Session } from '@tether/shared';
import type {
  AddPromptResult,
  AddRequestResult,
  AppendMessagesResult,
  MessagePageResult,
  RegisterSessionResult,
  ResolveRequestResult,
  Store,
} from '../store.ts';
import { schemaTooNew } from '../store.ts';
import { DESK_ANSWERER, isFinalStatus } from '@tether/shared';
import { MIGRATIONS } from './migrations/migrations.ts';
import { rowToMachine, rowToMessage, rowToPrompt, rowToRequest, rowToResolution, rowToSession, rowToShareLink, rowToToken, SESSION_PATCH_COLUMNS, tokenInfo, type Row } from '../rows.ts';

/** How long a writer waits for another process's lock (e.g. `tether token create`) before failing. */
const BUSY_TIMEOUT_MS = 5000;

const SESSION_COLUMNS = `s.*, (SELECT COUNT(*) FROM requests r WHERE r.session_id = s.id AND r.resolved_at IS NULL) AS pending_count`;

/** Applies every migration above the recorded version, each in its own transaction. */
function migrateSqlite(db: Database): void {
  db.run(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const row = db.query(`SELECT COALESCE(MAX(version), 0) AS v FROM schema_migrations`).get() as { v: number };
  const known = MIGRATIONS[MIGRATIONS.length - 1]!.version;
  if (row.v > known) throw schemaTooNew({ found: row.v, known });
  for (const migration of MIGRATIONS) {
    if (migration.version <= row.v) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.query(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`).run(
        migration.version,
        migration.name,
        Date.now(),
      );
    }).immediate();
  }
}

/** Chats, approvals and token hashes: the owner's only. SQLite gives -wal and -shm the main file's
 *  mode, so the file is made 0600 before SQLite opens it; files of older hubs are tightened. */
function ownerOnly(path: string): void {
  if (path === ':memory:') return;
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

export function createSqliteStore(options: { path: string }): Store {
  ownerOnly(options.path);
  const db = new Database(options.path, { create: true, strict: true });
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.run('PRAGMA journal_mode = WAL');
  ownerOnly(options.path);
  // NORMAL is durable across process crashes in WAL mode (only an OS crash can lose the last commits).
  db.run('PRAGMA synchronous = NORMAL');
  db.run('PRAGMA foreign_keys = ON');
  migrateSqlite(db);

  const q = {
    sessionById: db.query(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = $id`),
    sessionInNs: db.query(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = $id AND s.namespace = $ns`),
    sessionNs: db.query(`SELECT namespace, last_seq FROM sessions WHERE id = $id`),
    messageById: db.query(`SELECT seq FROM messages WHERE session_id = $sid AND id = $id`),
    insertMessage: db.query(`INSERT INTO messages (session_id, seq, id, json) VALUES ($sid, $seq, $id, $json)`),
    setLastSeq: db.query(`UPDATE sessions SET last_seq = $seq, updated_at = MAX(updated_at, $now) WHERE id = $id`),
    requestById: db.query(`SELECT * FROM requests WHERE id = $id`),
  };

  const getSession = (ns: string, id: string): Session | null => {
    const row = q.sessionInNs.get({ id, ns }) as Row | null;
    return row ? rowToSession(row) : null;
  };

  const store: Store = {
    async insertToken({ token }) {
      db.query(
        `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at)
         VALUES ($id, $ns, $hash, $label, $created, $lastUsed, $revoked)`,
      ).run({
        id: token.id,
        ns: token.namespace,
        hash: token.hash,
        label: token.label,
        created: token.createdAt,
        lastUsed: token.lastUsedAt,
        revoked: token.revokedAt,
      });
    },
    async findTokenByHash({ hash }) {
      const row = db.query(`SELECT * FROM tokens WHERE hash = $hash`).get({ hash }) as Row | null;
      return row ? rowToToken(row) : null;
    },
    async getToken({ id }) {
      const row = db.query(`SELECT * FROM tokens WHERE id = $id`).get({ id }) as Row | null;
      return row ? rowToToken(row) : null;
    },
    async listTokens(options) {
      const rows = (
        options?.namespace
          ? db.query(`SELECT * FROM tokens WHERE namespace = $ns ORDER BY created_at, id`).all({ ns: options.namespace })
          : db.query(`SELECT * FROM tokens ORDER BY created_at, id`).all()
      ) as Row[];
      return rows.map((r) => tokenInfo(rowToToken(r)));
    },
    async revokeToken({ id, at }) {
      const res = db.query(`UPDATE tokens SET revoked_at = $at WHERE id = $id AND revoked_at IS NULL`).run({ id, at });
      return res.changes > 0;
    },
    async touchToken({ id, at }) {
      db.query(`UPDATE tokens SET last_used_at = $at WHERE id = $id`).run({ id, at });
    },

    async insertShareLink({ link }) {
      db.query(
        `INSERT INTO share_links (jti, namespace, session_id, created_by, created_at, expires_at, revoked_at)
         VALUES ($jti, $ns, $sid, $by, $created, $expires, $revoked)`,
      ).run({ jti: link.jti, ns: link.namespace, sid: link.sessionId, by: link.createdBy, created: link.createdAt, expires: link.expiresAt, revoked: link.revokedAt });
    },
    async getShareLink({ jti }) {
      const row = db.query(`SELECT * FROM share_links WHERE jti = $jti`).get({ jti }) as Row | null;
      if (!row) return null;
      return rowToShareLink(row);
    },
    async revokeShareLink({ namespace, sessionId, jti, at }) {
      const res = db
        .query(`UPDATE share_links SET revoked_at = $at WHERE jti = $jti AND namespace = $ns AND session_id = $sid AND revoked_at IS NULL`)
        .run({ jti, ns: namespace, sid: sessionId, at });
      return res.changes > 0;
    },

    async saveFinalScreen({ namespace, sessionId, screen, keep }) {
      db.transaction(() => {
        db.query(
          `INSERT INTO final_screens (namespace, session_id, "offset", cols, rows, data, saved_at) VALUES ($ns, $sid, $offset, $cols, $rows, $data, $at)
           ON CONFLICT (namespace, session_id) DO UPDATE SET "offset" = $offset, cols = $cols, rows = $rows, data = $data, saved_at = $at`,
        ).run({ ns: namespace, sid: sessionId, offset: screen.offset, cols: screen.cols, rows: screen.rows, data: screen.data, at: screen.savedAt });
        db.query(
          `DELETE FROM final_screens WHERE namespace = $ns AND session_id NOT IN
             (SELECT session_id FROM final_screens WHERE namespace = $ns ORDER BY saved_at DESC, session_id LIMIT $keep)`,
        ).run({ ns: namespace, keep });
      })();
    },
    async getFinalScreen({ namespace, sessionId }) {
      const row = db.query(`SELECT * FROM final_screens WHERE namespace = $ns AND session_id = $sid`).get({ ns: namespace, sid: sessionId }) as Row | null;
      if (!row) return null;
      return { offset: Number(row.offset), cols: Number(row.cols), rows: Number(row.rows), data: String(row.data), savedAt: Number(row.saved_at) };
    },
    async deleteFinalScreen({ namespace, sessionId }) {
      db.query(`DELETE FROM final_screens WHERE namespace = $ns AND session_id = $sid`).run({ ns: namespace, sid: sessionId });
    },

    async registerSession({ namespace, registration: r, now }) {
      return db
        .transaction((): RegisterSessionResult => {
          const owner = q.sessionNs.get({ id: r.id }) as { namespace: string } | null;
          if (owner && owner.namespace !== namespace) return { kind: 'forbidden' };
          const final = isFinalStatus(r.status);
          // What the runner knows about its session: written on first registration and refreshed on
          // every re-registration.
          const fields = {
            id: r.id,
            machine: r.machineId,
            title: r.title,
            cwd: r.cwd,
            launch: r.launchKind,
            status: r.status,
            claude: r.claudeSessionId,
            model: r.model,
            perm: r.permissionMode,
            desk: r.deskAttached ? 1 : 0,
            now,
          };
          if (!owner) {
            db.query(
              `INSERT INTO sessions (id, namespace, machine_id, title, cwd, launch_kind, status, claude_session_id, model,
                 permission_mode, controller, desk_attached, failure_reason, exit_code, last_seq, created_at, updated_at, ended_at)
               VALUES ($id, $ns, $machine, $title, $cwd, $launch, $status, $claude, $model, $perm, NULL, $desk, NULL, NULL, 0,
                 $created, $now, $ended)`,
            ).run({ ...fields, ns: namespace, created: r.createdAt ?? now, ended: final ? now : null });
          } else {
            // Re-registration after a reconnect: refresh what the runner knows, keep messages and seq.
            db.query(
              `UPDATE sessions SET machine_id = $machine, title = $title, cwd = $cwd, launch_kind = $launch, status = $status,
                 claude_session_id = $claude, model = $model, permission_mode = $perm, desk_attached = $desk,
                 updated_at = $now, ended_at = CASE WHEN $final THEN COALESCE(ended_at, $now) ELSE NULL END,
                 failure_reason = CASE WHEN $final THEN failure_reason ELSE NULL END,
                 exit_code = CASE WHEN $final THEN exit_code ELSE NULL END
               WHERE id = $id`,
            ).run({ ...fields, final: final ? 1 : 0 });
          }
          return { kind: 'ok', session: getSession(namespace, r.id)!, created: !owner };
        })
        .immediate();
    },
    async getSession({ namespace, sessionId }) {
      return getSession(namespace, sessionId);
    },
    async listSessions({ namespace }) {
      const rows = db
        .query(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.namespace = $ns ORDER BY s.updated_at DESC, s.id`)
        .all({ ns: namespace }) as Row[];
      return rows.map(rowToSession);
    },
    async updateSession({ namespace, sessionId, patch, now }) {
      return db
        .transaction((): Session | null => {
          if (!getSession(namespace, sessionId)) return null;
          const sets: string[] = ['updated_at = $now'];
          const params: Record<string, string | number | null> = { id: sessionId, now };
          for (const [key, column] of SESSION_PATCH_COLUMNS) {
            const value = patch[key];
            if (value === undefined) continue;
            sets.push(`${column} = $${key}`);
            params[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
          }
          db.query(`UPDATE sessions SET ${sets.join(', ')} WHERE id = $id`).run(params);
          return getSession(namespace, sessionId);
        })
        .immediate();
    },
    async endSession({ namespace, sessionId, status, exitCode, reason, now }) {
      return db
        .transaction((): Session | null => {
          if (!getSession(namespace, sessionId)) return null;
          db.query(
            `UPDATE sessions SET status = $status, exit_code = $exit, failure_reason = $reason, updated_at = $now,
               ended_at = COALESCE(ended_at, $now) WHERE id = $id`,
          ).run({ id: sessionId, status, exit: exitCode, reason, now });
          // Prompts that never reached claude will not now.
          db.query(
            `UPDATE prompts SET status = 'dropped', reason = 'session ended', updated_at = $now
             WHERE session_id = $id AND status IN ('queued', 'waiting_for_desk', 'typing')`,
          ).run({ id: sessionId, now });
          return getSession(namespace, sessionId);
        })
        .immediate();
    },

    async appendMessages({ namespace, sessionId, messages }) {
      return db
        .transaction((): AppendMessagesResult | null => {
          const owner = q.sessionNs.get({ id: sessionId }) as { namespace: string; last_seq: number } | null;
          if (!owner || owner.namespace !== namespace) return null;
          let seq = owner.last_seq;
          const added: ChatMessage[] = [];
          const seqs: number[] = [];
          for (const message of messages) {
            const existing = q.messageById.get({ sid: sessionId, id: message.id }) as { seq: number } | null;
            if (existing) {
              seqs.push(existing.seq);
              continue;
            }
            seq += 1;
            q.insertMessage.run({ sid: sessionId, seq, id: message.id, json: JSON.stringify(message) });
            added.push({ ...message, sessionId, seq });
            seqs.push(seq);
          }
          if (added.length > 0) q.setLastSeq.run({ id: sessionId, seq, now: Date.now() });
          return { added, seqs, lastSeq: seq };
        })
        .immediate();
    },
    async listMessages({ namespace, sessionId, after, before, limit }) {
      if (!getSession(namespace, sessionId)) return null;
      let rows: Row[];
      let more: boolean;
      if (after !== undefined) {
        rows = db
          .query(`SELECT seq, json FROM messages WHERE session_id = $sid AND seq > $after ORDER BY seq ASC LIMIT $lim`)
          .all({ sid: sessionId, after, lim: limit + 1 }) as Row[];
        more = rows.length > limit;
        rows = rows.slice(0, limit);
      } else {
        const bound = before ?? Number.MAX_SAFE_INTEGER;
        rows = db
          .query(`SELECT seq, json FROM messages WHERE session_id = $sid AND seq < $bound ORDER BY seq DESC LIMIT $lim`)
          .all({ sid: sessionId, bound, lim: limit + 1 }) as Row[];
        more = rows.length > limit;
        rows = rows.slice(0, limit).reverse();
      }
      const page: MessagePageResult = { messages: rows.map((r) => rowToMessage(r, sessionId)), more };
      return page;
    },

    async upsertMachine({ namespace, machine, now }) {
      db.query(
        `INSERT INTO machines (namespace, id, name, os, user, home, online, last_seen_at, shell)
         VALUES ($ns, $id, $name, $os, $user, $home, 1, $now, $shell)
         ON CONFLICT (namespace, id) DO UPDATE SET name = $name, os = $os, user = $user, home = $home,
           online = 1, last_seen_at = $now, shell = $shell`,
      ).run({ ns: namespace, id: machine.id, name: machine.name, os: machine.os, user: machine.user, home: machine.home, now, shell: machine.shell ? 1 : 0 });
      return rowToMachine(db.query(`SELECT * FROM machines WHERE namespace = $ns AND id = $id`).get({ ns: namespace, id: machine.id }) as Row);
    },
    async setMachineOnline({ namespace, machineId, online, now }) {
      db.query(`UPDATE machines SET online = $online, last_seen_at = $now WHERE namespace = $ns AND id = $id`).run({
        ns: namespace,
        id: machineId,
        online: online ? 1 : 0,
        now,
      });
      const row = db.query(`SELECT * FROM machines WHERE namespace = $ns AND id = $id`).get({ ns: namespace, id: machineId }) as Row | null;
      return row ? rowToMachine(row) : null;
    },
    async listMachines({ namespace }) {
      const rows = db.query(`SELECT * FROM machines WHERE namespace = $ns ORDER BY name, id`).all({ ns: namespace }) as Row[];
      return rows.map(rowToMachine);
    },

    async addRequest({ namespace, request }) {
      return db
        .transaction((): AddRequestResult => {
          if (!getSession(namespace, request.sessionId)) return { kind: 'not_found' };
          const row = q.requestById.get({ id: request.id }) as Row | null;
          if (row) {
            if (row.namespace !== namespace || row.session_id !== request.sessionId) return { kind: 'not_found' };
            const stored = rowToRequest(row);
            if (row.resolved_at == null) return { kind: 'pending', request: stored };
            return { kind: 'resolved', request: stored, resolution: rowToResolution(row) };
          }
          db.query(
            `INSERT INTO requests (id, namespace, session_id, kind, tool_name, tool_input, tool_use_id, created_at)
             VALUES ($id, $ns, $sid, $kind, $tool, $input, $useId, $created)`,
          ).run({
            id: request.id,
            ns: namespace,
            sid: request.sessionId,
            kind: request.kind,
            tool: request.toolName,
            input: JSON.stringify(request.toolInput),
            useId: request.toolUseId,
            created: request.createdAt,
          });
          return { kind: 'added', request: rowToRequest(q.requestById.get({ id: request.id }) as Row) };
        })
        .immediate();
    },
    async listPending({ namespace, sessionId }) {
      const rows = db
        .query(
          `SELECT * FROM requests WHERE namespace = $ns AND session_id = $sid AND resolved_at IS NULL ORDER BY created_at, id`,
        )
        .all({ ns: namespace, sid: sessionId }) as Row[];
      return rows.map(rowToRequest);
    },
    async resolveRequest({ namespace, requestId, sessionId, outcome, answer, answeredBy, device, at }) {
      return db
        .transaction((): ResolveRequestResult => {
          const row = q.requestById.get({ id: requestId }) as Row | null;
          if (!row || row.namespace !== namespace) return { kind: 'not_found' };
          if (sessionId !== undefined && row.session_id !== sessionId) return { kind: 'not_found' };
          if (row.resolved_at != null) return { kind: 'already', resolution: rowToResolution(row) };
          const waited = Math.max(0, at - (row.created_at as number));
          const res = db
            .query(
              `UPDATE requests SET outcome = $outcome, answer = $answer, answered_by = $by, device = $device,
                 waited_ms = $waited, resolved_at = $at WHERE id = $id AND resolved_at IS NULL`,
            )
            .run({
              id: requestId,
              outcome,
              answer: answer === null ? null : JSON.stringify(answer),
              by: answeredBy,
              device,
              waited,
              at,
            });
          const updated = q.requestById.get({ id: requestId }) as Row;
          // The WHERE above is the real guard; inside this transaction it can only fail if another
          // process answered in between, which the busy lock rules out, but keep the answer honest.
          if (res.changes === 0) return { kind: 'already', resolution: rowToResolution(updated) };
          return { kind: 'resolved', request: rowToRequest(updated), resolution: rowToResolution(updated) };
        })
        .immediate();
    },
    async recordDialogOutcome({ namespace, sessionId, requestId, answer }) {
      // Only an entry the desk took to claude's dialog (answered, by the desk, no answer yet).
      const res = db
        .query(
          `UPDATE requests SET answer = $answer WHERE id = $id AND namespace = $ns AND session_id = $sid
             AND outcome = 'answered' AND answered_by = $desk AND answer IS NULL AND resolved_at IS NOT NULL`,
        )
        .run({ id: requestId, ns: namespace, sid: sessionId, desk: DESK_ANSWERER, answer: JSON.stringify(answer) });
      return res.changes > 0 ? rowToResolution(q.requestById.get({ id: requestId }) as Row) : null;
    },
    async listAudit({ namespace, sessionId, limit }) {
      const rows = db
        .query(
          `SELECT * FROM requests WHERE namespace = $ns AND session_id = $sid AND resolved_at IS NOT NULL
           ORDER BY resolved_at DESC, id LIMIT $lim`,
        )
        .all({ ns: namespace, sid: sessionId, lim: limit }) as Row[];
      return rows.map(rowToResolution);
    },

    async addPrompt({ namespace, prompt }) {
      return db
        .transaction((): AddPromptResult => {
          if (!getSession(namespace, prompt.sessionId)) return { kind: 'not_found' };
          const row = db.query(`SELECT * FROM prompts WHERE id = $id`).get({ id: prompt.id }) as Row | null;
          if (row) {
            if (row.namespace !== namespace || row.session_id !== prompt.sessionId) return { kind: 'not_found' };
            return { kind: 'exists', prompt: rowToPrompt(row) };
          }
          db.query(
            `INSERT INTO prompts (id, namespace, session_id, text, status, reason, created_at, updated_at)
             VALUES ($id, $ns, $sid, $text, $status, $reason, $created, $updated)`,
          ).run({
            id: prompt.id,
            ns: namespace,
            sid: prompt.sessionId,
            text: prompt.text,
            status: prompt.status,
            reason: prompt.reason,
            created: prompt.createdAt,
            updated: prompt.updatedAt,
          });
          return { kind: 'added', prompt };
        })
        .immediate();
    },
    async updatePrompt({ namespace, sessionId, promptId, status, reason, now }) {
      const res = db
        .query(
          `UPDATE prompts SET status = $status, reason = $reason, updated_at = $now
           WHERE id = $id AND namespace = $ns AND session_id = $sid`,
        )
        .run({ id: promptId, ns: namespace, sid: sessionId, status, reason, now });
      if (res.changes === 0) return null;
      return rowToPrompt(db.query(`SELECT * FROM prompts WHERE id = $id`).get({ id: promptId }) as Row);
    },
    async listPrompts({ namespace, sessionId, status }) {
      const rows = (
        status
          ? db
              .query(`SELECT * FROM prompts WHERE namespace = $ns AND session_id = $sid AND status = $status ORDER BY created_at, id`)
              .all({ ns: namespace, sid: sessionId, status })
          : db.query(`SELECT * FROM prompts WHERE namespace = $ns AND session_id = $sid ORDER BY created_at, id`).all({ ns: namespace, sid: sessionId })
      ) as Row[];
      return rows.map(rowToPrompt);
    },

    async close() {
      db.close();
    },
  };
  return store;
}
