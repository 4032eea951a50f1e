// session-usage-limit.ts (upgrade): a session's usage limit as its runner reported it (shared
// usage-limit.ts), the reset tether already sent its one continue for, and the person's
// continue-at-reset choice (issue 42), for both stores. Nullable columns: an older session has none
// of them. Its own entry, so that it can be renumbered against others' when merged.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const SESSION_USAGE_LIMIT_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'session-usage-limit',
  statements: (dialect) => [
    `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'usage_limit', type: 'json', nullable: true })}`,
    `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'limit_continued_for', type: 'time', nullable: true })}`,
    `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'limit_continue', type: 'json', nullable: true })}`,
  ],
};
