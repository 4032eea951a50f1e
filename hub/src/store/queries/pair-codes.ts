// pair-codes.ts (queries): one-time pairing codes, kept as hashes. Redeeming is one transaction: the
// conditional UPDATE … WHERE used_at IS NULL AND expires_at > $at is the guard (in PostgreSQL a second
// redeem waits on the row lock and then finds it used; SQLite's write transaction excludes it), and
// the device token is inserted in the same transaction, so a code never mints two tokens.
import type { RedeemPairCodeResult, Store } from '../store.ts';
import { first, type SqlDriver } from '../sql/driver.ts';

type PairCodeQueries = Pick<Store, 'insertPairCode' | 'redeemPairCode' | 'countLivePairCodes' | 'purgePairCodes'>;

export function pairCodeQueries(db: SqlDriver): PairCodeQueries {
  return {
    async insertPairCode({ code }) {
      await db.run(
        `INSERT INTO pair_codes (hash, namespace, created_by, created_at, expires_at, used_at, token_id) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [code.hash, code.namespace, code.createdBy, code.createdAt, code.expiresAt, code.usedAt, code.tokenId],
      );
    },
    async redeemPairCode({ hash, at, token }) {
      return db.transaction(async (tx): Promise<RedeemPairCodeResult> => {
        const won = await first(
          tx,
          `UPDATE pair_codes SET used_at = $2, token_id = $3 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING namespace`,
          [hash, at, token.id],
        );
        if (!won) return (await first(tx, `SELECT 1 AS found FROM pair_codes WHERE hash = $1`, [hash])) ? { kind: 'spent' } : { kind: 'unknown' };
        const minted = { ...token, namespace: String(won.namespace) };
        await tx.run(
          `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [minted.id, minted.namespace, minted.hash, minted.label, minted.createdAt, minted.lastUsedAt, minted.revokedAt],
        );
        return { kind: 'redeemed', token: minted };
      });
    },
    async countLivePairCodes({ namespace, at }) {
      const row = await first(db, `SELECT COUNT(*) AS n FROM pair_codes WHERE namespace = $1 AND used_at IS NULL AND expires_at > $2`, [namespace, at]);
      return Number(row?.n ?? 0);
    },
    async purgePairCodes({ before }) {
      return db.run(`DELETE FROM pair_codes WHERE expires_at < $1`, [before]);
    },
  };
}
