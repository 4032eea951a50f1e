// reviews.ts (upgrade): a session's parent (the session it reviews) and the review records (issue
// 29), for both stores. Spelled out here rather than read from tables.ts, so that a later change
// there never rewrites what a database already ran. Older sessions review nothing (parent null) and
// there are no reviews yet, so old rows need nothing.
import { columnSql, createSchema, type Dialect } from '../ddl.ts';
import type { Table } from '../tables.ts';

const REVIEWS_AS_ADDED: Table = {
  name: 'reviews',
  columns: [
    { name: 'id', type: 'text' },
    { name: 'namespace', type: 'text' },
    { name: 'parent_id', type: 'text' },
    { name: 'agent', type: 'text' },
    { name: 'state', type: 'text' },
    { name: 'focus', type: 'text' },
    { name: 'final_answer', type: 'text', nullable: true },
    { name: 'created_at', type: 'time' },
    { name: 'updated_at', type: 'time' },
  ],
  primaryKey: ['id'],
  references: { id: 'sessions', parent_id: 'sessions' },
  indexes: [{ name: 'reviews_parent', columns: ['parent_id', 'created_at'] }],
};

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const REVIEWS_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'reviews',
  statements: (dialect) => [
    `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'parent_id', type: 'text', nullable: true })}`,
    ...createSchema(dialect, [REVIEWS_AS_ADDED]),
  ],
};
