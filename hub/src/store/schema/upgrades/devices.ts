// devices.ts (upgrade): paired devices that stay signed in (issue 38), for both stores.
// tokens: what a token is (an access token, or a paired device's), the token whose pairing code
// minted it (revoked, its devices go with it), and a device's rotating refresh secret (its SHA-256,
// the one it replaced, and when). pair_codes: the token that made the code (null: the hub's own
// machine), so a code dies with its maker. All nullable or defaulted: old rows need nothing (an old
// device token is a device without a refresh secret, found by its label).
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const DEVICES_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'devices',
  statements: (dialect) => [
    `ALTER TABLE "tokens" ADD COLUMN ${columnSql(dialect, { name: 'kind', type: 'text', default: 'access' })}`,
    ...['parent_id', 'refresh_hash', 'refresh_prev_hash'].map((name) => `ALTER TABLE "tokens" ADD COLUMN ${columnSql(dialect, { name, type: 'text', nullable: true })}`),
    `ALTER TABLE "tokens" ADD COLUMN ${columnSql(dialect, { name: 'refreshed_at', type: 'time', nullable: true })}`,
    `UPDATE "tokens" SET "kind" = 'device' WHERE "label" LIKE 'paired device %'`,
    `CREATE INDEX "tokens_parent" ON "tokens" ("parent_id")`,
    `ALTER TABLE "pair_codes" ADD COLUMN ${columnSql(dialect, { name: 'creator_token_id', type: 'text', nullable: true })}`,
  ],
};
