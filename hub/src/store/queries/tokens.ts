// tokens.ts (queries): access tokens (cross-namespace: looked up by hash to learn the namespace) and
// share links (looked up by jti: it comes from a verified signed link).
import type { Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';
import { rowToShareLink, rowToToken, tokenInfo } from '../rows.ts';

type TokenQueries = Pick<Store, 'insertToken' | 'findTokenByHash' | 'getToken' | 'listTokens' | 'revokeToken' | 'touchToken' | 'insertShareLink' | 'getShareLink' | 'revokeShareLink'>;

export function tokenQueries(db: SqlDriver): TokenQueries {
  return {
    async insertToken({ token }) {
      await db.run(
        `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [token.id, token.namespace, token.hash, token.label, token.createdAt, token.lastUsedAt, token.revokedAt],
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
      return (await db.run(`UPDATE tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL`, [id, at])) > 0;
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
