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
        `INSERT INTO pair_codes (hash, namespace, created_by, created_at, expires_at, used_at, token_id, creator_token_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [code.hash, code.namespace, code.createdBy, code.createdAt, code.expiresAt, code.usedAt, code.tokenId, code.creatorTokenId],
      );
    },
    async redeemPairCode({ hash, at, token, refreshHash }) {
      return db.transaction(async (tx): Promise<RedeemPairCodeResult> => {
        // A code whose maker is revoked is as good as spent: it dies with its maker.
        const won = await first(
          tx,
          `UPDATE pair_codes SET used_at = $2, token_id = $3 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2
             AND (creator_token_id IS NULL OR EXISTS (SELECT 1 FROM tokens WHERE tokens.id = pair_codes.creator_token_id AND tokens.revoked_at IS NULL))
           RETURNING namespace, creator_token_id`,
          [hash, at, token.id],
        );
        if (!won) return (await first(tx, `SELECT 1 AS found FROM pair_codes WHERE hash = $1`, [hash])) ? { kind: 'spent' } : { kind: 'unknown' };
        const minted = { ...token, namespace: String(won.namespace), parentId: (won.creator_token_id as string | null) ?? null };
        await tx.run(
          `INSERT INTO tokens (id, namespace, hash, label, created_at, last_used_at, revoked_at, kind, parent_id, refresh_hash, refreshed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [minted.id, minted.namespace, minted.hash, minted.label, minted.createdAt, minted.lastUsedAt, minted.revokedAt, minted.kind, minted.parentId, refreshHash, refreshHash ? at : null],
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
