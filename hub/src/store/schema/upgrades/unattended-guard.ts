// unattended-guard.ts (upgrade): the guard on unattended work (issue 42, item 5), for both stores:
// the namespace's switch, cap and day's count; the stop a session's limit continue met; the token a
// prompt was sent with (held prompts die with it). Spelled out here, never read from tables.ts.
// Nullable columns and a new table: old rows need nothing.
import { columnSql, createSchema, type Dialect } from '../ddl.ts';
import type { Table } from '../tables.ts';

const GUARD_AS_ADDED: Table = {
  name: 'unattended_guard',
  columns: [
    { name: 'namespace', type: 'text' },
    { name: 'paused', type: 'bool', default: false },
    { name: 'daily_cap', type: 'bigint' },
    { name: 'day', type: 'text' },
    { name: 'runs', type: 'bigint', default: 0 },
    { name: 'updated_at', type: 'time' },
  ],
  primaryKey: ['namespace'],
};

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const UNATTENDED_GUARD_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'unattended-guard',
  statements: (dialect) => [
    ...createSchema(dialect, [GUARD_AS_ADDED]),
    `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'limit_held', type: 'text', nullable: true })}`,
    `ALTER TABLE "prompts" ADD COLUMN ${columnSql(dialect, { name: 'creator_token_id', type: 'text', nullable: true })}`,
    `CREATE INDEX "prompts_creator" ON "prompts"("creator_token_id")`,
  ],
};
