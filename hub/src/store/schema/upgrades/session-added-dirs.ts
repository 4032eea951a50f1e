// session-added-dirs.ts (upgrade): the folders a session's agent was given beyond its own (claude and
// Codex `--add-dir`, Gemini `--include-directories`; shared added-dirs.ts), for both stores: a resume
// from afar gives them again (issue 40). A JSON column on sessions, nullable: an older session named
// none on record, so old rows need nothing. Its own entry, so that it can be renumbered against
// others' when merged.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const SESSION_ADDED_DIRS_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'session-added-dirs',
  statements: (dialect) => [`ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'added_dirs', type: 'json', nullable: true })}`],
};
