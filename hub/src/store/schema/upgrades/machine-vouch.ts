// machine-vouch.ts (upgrade): the hash of a machine's secret, registered by its daemon, that a session
// naming the machine must prove (desk sessions belong to their machine; issue 40), for both stores.
// Nullable: a machine an older daemon registered vouches for nothing, and its claims are taken as before.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const MACHINE_VOUCH_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'machine-vouch',
  statements: (dialect) => [`ALTER TABLE "machines" ADD COLUMN ${columnSql(dialect, { name: 'vouch_hash', type: 'text', nullable: true })}`],
};
