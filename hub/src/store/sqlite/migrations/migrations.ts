// migrations.ts: the ordered list of schema migrations. sqlite-store.ts applies each version above
// the one recorded in `schema_migrations`, one transaction per migration.
import { MIGRATION_0001 } from './0001-initial.ts';
import { MIGRATION_0002 } from './0002-share-links.ts';
import { MIGRATION_0003 } from './0003-machine-shell.ts';
import { MIGRATION_0004 } from './0004-final-screens.ts';
import { MIGRATION_0005 } from './0005-session-effort.ts';

export type Migration = { version: number; name: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [MIGRATION_0001, MIGRATION_0002, MIGRATION_0003, MIGRATION_0004, MIGRATION_0005];
