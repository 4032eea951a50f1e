// session-worktree.ts (upgrade): the git worktree a session runs in (issue 30), for both stores.
// A JSON column on sessions, nullable: every older session ran in a folder of its own choosing, so
// old rows need nothing. Its own entry, so that it can be renumbered against others' when merged.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const SESSION_WORKTREE_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'session-worktree',
  statements: (dialect) => [`ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'worktree', type: 'json', nullable: true })}`],
};
