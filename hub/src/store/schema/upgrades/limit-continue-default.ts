// limit-continue-default.ts (upgrade): a namespace's continue-at-reset default for sessions with no
// choice of their own (issue 42, item 1), beside its unattended guard, for both stores. Nullable
// columns: a namespace that has not chosen keeps the hub's default.
import { columnSql, type Dialect } from '../ddl.ts';

/** migrations.ts's Upgrade, named here by its shape (no import back into migrations.ts). */
export const LIMIT_CONTINUE_DEFAULT_UPGRADE: { name: string; statements: (dialect: Dialect) => string[] } = {
  name: 'limit-continue-default',
  statements: (dialect) => [
    `ALTER TABLE "unattended_guard" ADD COLUMN ${columnSql(dialect, { name: 'continue_on', type: 'bool', nullable: true })}`,
    `ALTER TABLE "unattended_guard" ADD COLUMN ${columnSql(dialect, { name: 'continue_prompt', type: 'text', nullable: true })}`,
  ],
};
