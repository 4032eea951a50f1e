// tokens.ts (queries): access tokens (cross-namespace: looked up by hash to learn the namespace) and
// share links (looked up by jti: it comes from a verified signed link).
import type { DeviceRefreshRecord, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToShareLink, rowToToken, tokenInfo } from '../rows.ts';

type TokenQueries = Pick<
  Store,
  'insertToken' | 'findTokenByHash' | 'getToken' | 'listTokens' | 'revokeToken' | 'touchToken' | 'getDeviceRefresh' | 'rotateDeviceRefresh' | 'insertShareLink' | 'getShareLink' | 'revokeShareLink'
>;

/** The token and every device paired from it, on down (both dialects have recursive CTEs). */
const TREE = `WITH RECURSIVE tree(id) AS (SELECT id FROM tokens WHERE id = $1 UNION SELECT t.id FROM tokens t JOIN tree ON t.parent_id = tree.id)`;

export function tokenQueries(db: SqlDriver): TokenQueries {
  return {
    async insertToken({ token }) {
      await db.run(
        `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at, kind, parent_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [token.id, token.namespace, token.hash, token.label, token.createdAt, token.lastUsedAt, token.revokedAt, token.kind, token.parentId],
      );
    },
    async findTokenByHash({ hash }) {
      const row = await first(db, `SELECT * FROM tokens WHERE hash = $1`, [hash]);
      return row ? rowToToken(row) : null;
    },
    async getToken({ id }) {
      const row = await first(db, `SELECT * FROM tokens WHERE id = $1`, [id]);
      return row ? rowToToken(row) : null;
    },
    async listTokens(options) {
      const rows = options?.namespace
        ? await db.all(`SELECT * FROM tokens WHERE namespace = $1 ORDER BY created_at, id`, [options.namespace])
        : await db.all(`SELECT * FROM tokens ORDER BY created_at, id`);
      return rows.map((r) => tokenInfo(rowToToken(r)));
    },
    async revokeToken({ id, at }) {
      const rows = await db.all(`${TREE} UPDATE tokens SET revoked_at = $2 WHERE revoked_at IS NULL AND id IN (SELECT id FROM tree) RETURNING id`, [id, at]);
      const ids = rows.map((r) => String(r.id));
      return ids.includes(id) ? [id, ...ids.filter((x) => x !== id)] : ids;
    },
    async getDeviceRefresh({ id }) {
      const row = await first(db, `SELECT * FROM tokens WHERE id = $1`, [id]);
      if (!row) return null;
      const record: DeviceRefreshRecord = {
        id: String(row.id),
        namespace: String(row.namespace),
        kind: row.kind === 'device' ? 'device' : 'access',
        hash: (row.refresh_hash as string | null) ?? null,
        prevHash: (row.refresh_prev_hash as string | null) ?? null,
        refreshedAt: row.refreshed_at === null || row.refreshed_at === undefined ? null : Number(row.refreshed_at),
        createdAt: Number(row.created_at),
        lastUsedAt: row.last_used_at === null || row.last_used_at === undefined ? null : Number(row.last_used_at),
        revokedAt: row.revoked_at === null || row.revoked_at === undefined ? null : Number(row.revoked_at),
      };
      return record;
    },
    async rotateDeviceRefresh({ id, from, to, at }) {
      const changed = await db.run(
        `UPDATE tokens SET refresh_prev_hash = refresh_hash, refresh_hash = $3, refreshed_at = $4, last_used_at = $4 WHERE id = $1 AND refresh_hash = $2 AND revoked_at IS NULL`,
        [id, from, to, at],
      );
      return changed > 0;
    },
    async touchToken({ id, at }) {
      await db.run(`UPDATE tokens SET last_used_at = $2 WHERE id = $1`, [id, at]);
    },

    async insertShareLink({ link }) {
      await db.run(
        `INSERT INTO share_links (jti, namespace, session_id, created_by, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [link.jti, link.namespace, link.sessionId, link.createdBy, link.createdAt, link.expiresAt, link.revokedAt],
      );
    },
    async getShareLink({ jti }) {
      const row = await first(db, `SELECT * FROM share_links WHERE jti = $1`, [jti]);
      return row ? rowToShareLink(row) : null;
    },
    async revokeShareLink({ namespace, sessionId, jti, at }) {
      const changed = await db.run(
        `UPDATE share_links SET revoked_at = $4 WHERE jti = $1 AND namespace = $2 AND session_id = $3 AND revoked_at IS NULL`,
        [jti, namespace, sessionId, at],
      );
      return changed > 0;
    },
  };
}
