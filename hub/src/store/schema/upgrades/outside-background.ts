// outside-background.ts (upgrade): a found conversation that runs as one of the agent's background
// sessions (claude --bg) carries the agent's id for it, so the phone can attach to it live (issue 40).
// A nullable text column: older rows were found before the daemon told them apart, and read as not
// background (a past conversation, or a live one that cannot be shared) until reported again.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const OUTSIDE_BACKGROUND_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'outside-background',
  statements: (dialect) => [`ALTER TABLE "outside_sessions" ADD COLUMN ${columnSql(dialect, { name: 'background_id', type: 'text', nullable: true })}`],
};
