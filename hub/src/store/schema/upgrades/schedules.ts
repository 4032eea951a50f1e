// schedules.ts (upgrade): scheduled prompts (issue 42), for both stores. Spelled out here rather than
// read from tables.ts, so that a later change there never rewrites what a database already ran.
// A new table: old rows need nothing.
import { createSchema, type Dialect } from '../ddl.ts';
import type { Table } from '../tables.ts';

const SCHEDULES_AS_ADDED: Table = {
  name: 'schedules',
  columns: [
    { name: 'id', type: 'text' },
    { name: 'namespace', type: 'text' },
    { name: 'target', type: 'json' },
    { name: 'timing', type: 'json' },
    { name: 'prompt', type: 'text' },
    { name: 'missed', type: 'text' },
    { name: 'paused', type: 'bool', default: false },
    { name: 'next_run_at', type: 'time', nullable: true },
    { name: 'last_fired_at', type: 'time', nullable: true },
    { name: 'last_run', type: 'json', nullable: true },
    { name: 'runs', type: 'bigint', default: 0 },
    { name: 'created_by', type: 'text' },
    { name: 'creator_token_id', type: 'text', nullable: true },
    { name: 'created_at', type: 'time' },
    { name: 'updated_at', type: 'time' },
  ],
  primaryKey: ['id'],
  indexes: [
    { name: 'schedules_due', columns: ['next_run_at'] },
    { name: 'schedules_namespace', columns: ['namespace', 'created_at'] },
    { name: 'schedules_creator', columns: ['creator_token_id'] },
  ],
};

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const SCHEDULES_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'schedules',
  statements: (dialect) => createSchema(dialect, [SCHEDULES_AS_ADDED]),
};
