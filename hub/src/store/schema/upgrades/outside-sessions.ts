// outside-sessions.ts (upgrade): the index of conversations found on a machine that tether did not run
// (issue 40), the machine's switch for finding them, and the sessions' index by agent session id
// that leaves out what tether ran, for both stores. Old machines find nothing until switched on.
import { columnSql, createSchema, type Dialect } from '../ddl.ts';
import type { Table } from '../tables.ts';

const OUTSIDE_AS_ADDED: Table = {
  name: 'outside_sessions',
  columns: [
    { name: 'namespace', type: 'text' },
    { name: 'machine_id', type: 'text' },
    { name: 'agent_session_id', type: 'text' },
    { name: 'agent', type: 'text' },
    { name: 'folder', type: 'text' },
    { name: 'title', type: 'text' },
    { name: 'last_activity', type: 'time' },
    { name: 'size_bytes', type: 'bigint' },
    { name: 'live', type: 'bool' },
    { name: 'seen_at', type: 'time' },
    { name: 'claimed_at', type: 'time', nullable: true },
  ],
  primaryKey: ['namespace', 'machine_id', 'agent_session_id'],
  indexes: [{ name: 'outside_sessions_recent', columns: ['namespace', 'machine_id', 'last_activity'] }],
};

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const OUTSIDE_SESSIONS_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'outside-sessions',
  statements: (dialect) => [
    `ALTER TABLE "machines" ADD COLUMN ${columnSql(dialect, { name: 'outside', type: 'bool', default: false })}`,
    `CREATE INDEX "sessions_agent_session" ON "sessions"("namespace", "agent_session_id")`,
    ...createSchema(dialect, [OUTSIDE_AS_ADDED]),
  ],
};
