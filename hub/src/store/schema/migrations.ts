// migrations.ts: what brings a database to this hub's schema, the same plan for both stores (each
// store only runs it: sqlite/sqlite-store.ts in one immediate transaction, postgres/migrate.ts in one
// transaction under an advisory lock).
//  - an empty database is made from tables.ts at once and records the newest version;
//  - a database an older hub made gets the upgrades above its recorded version: first the shipped
//    hand-written ones of its store (history/, each store numbered apart: PostgreSQL's 1 is SQLite's
//    1–5), then the UPGRADES below, written once for both and numbered on from each store's history;
//  - a database past the newest version this hub knows is refused before anything is touched.
// Adding a column: add it in tables.ts and an upgrade here (`ALTER TABLE … ADD COLUMN` + columnSql),
// never edit a shipped one; schema.test.ts checks that upgraded and new databases end up alike.
import { schemaTooNew } from '../store.ts';
import { columnSql, createSchema, type Dialect } from './ddl.ts';
import { ATTACHMENTS_TABLE, SESSION_COMMANDS_TABLE, TABLES, type Table } from './tables.ts';
import { POSTGRES_0001 } from './history/postgres-0001-initial.ts';
import { MIGRATION_0001 } from './history/sqlite-0001-initial.ts';
import { MIGRATION_0002 } from './history/sqlite-0002-share-links.ts';
import { MIGRATION_0003 } from './history/sqlite-0003-machine-shell.ts';
import { MIGRATION_0004 } from './history/sqlite-0004-final-screens.ts';
import { MIGRATION_0005 } from './history/sqlite-0005-session-effort.ts';
import { REVIEWS_UPGRADE } from './upgrades/reviews.ts';
import { SESSION_WORKTREE_UPGRADE } from './upgrades/session-worktree.ts';
import { DEVICES_UPGRADE } from './upgrades/devices.ts';
import { MACHINE_VOUCH_UPGRADE } from './upgrades/machine-vouch.ts';
import { SESSION_ADDED_DIRS_UPGRADE } from './upgrades/session-added-dirs.ts';
import { OUTSIDE_SESSIONS_UPGRADE } from './upgrades/outside-sessions.ts';
import { OUTSIDE_BACKGROUND_UPGRADE } from './upgrades/outside-background.ts';
import { SCHEDULES_UPGRADE } from './upgrades/schedules.ts';
import { PROJECT_RULES_UPGRADE } from './upgrades/project-rules.ts';
import { SESSION_USAGE_LIMIT_UPGRADE } from './upgrades/session-usage-limit.ts';
import { UNATTENDED_GUARD_UPGRADE } from './upgrades/unattended-guard.ts';
import { LIMIT_CONTINUE_DEFAULT_UPGRADE } from './upgrades/limit-continue-default.ts';

export type Migration = { version: number; name: string; sql: string };
/** One schema change for both stores: the statements for the dialect at hand. */
export type Upgrade = { name: string; statements: (dialect: Dialect) => string[] };

/** What each store shipped before the schema became one module: the upgrades of older databases. */
export const HISTORY: Readonly<Record<Dialect, readonly Migration[]>> = {
  sqlite: [MIGRATION_0001, MIGRATION_0002, MIGRATION_0003, MIGRATION_0004, MIGRATION_0005],
  postgres: [POSTGRES_0001],
};

/** pair_codes as the 'pair-codes' upgrade made it (spelled out: tables.ts may change later). */
const PAIR_CODES_0010: Table = {
  name: 'pair_codes',
  columns: [
    { name: 'hash', type: 'text' },
    { name: 'namespace', type: 'text' },
    { name: 'created_by', type: 'text' },
    { name: 'created_at', type: 'time' },
    { name: 'expires_at', type: 'time' },
    { name: 'used_at', type: 'time', nullable: true },
    { name: 'token_id', type: 'text', nullable: true },
  ],
  primaryKey: ['hash'],
  indexes: [
    { name: 'pair_codes_expiry', columns: ['expires_at'] },
    { name: 'pair_codes_namespace', columns: ['namespace', 'expires_at'] },
  ],
};

/** Changes made since, once for both stores. Each spells its columns out (not read from tables.ts),
 *  so that a later change there never rewrites an upgrade a database already ran. */
export const UPGRADES: readonly Upgrade[] = [
  {
    // SQLite 6, PostgreSQL 2: pin and archive (issue 21), nullable times, so old rows need nothing.
    name: 'session-pin-archive',
    statements: (dialect) =>
      ['pinned_at', 'archived_at'].map((name) => `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name, type: 'time', nullable: true })}`),
  },
  {
    // SQLite 7, PostgreSQL 3: a prompt's attachments, their bytes, a session's slash commands (issue 21).
    name: 'attachments',
    statements: (dialect) => [
      `ALTER TABLE "prompts" ADD COLUMN ${columnSql(dialect, { name: 'attachments', type: 'json', nullable: true })}`,
      ...createSchema(dialect, [ATTACHMENTS_TABLE, SESSION_COMMANDS_TABLE]),
    ],
  },
  {
    // SQLite 8, PostgreSQL 4: the agent a session runs and the agents a machine has (issue 20);
    // every older session ran claude, and an older machine's daemon knew only claude.
    name: 'agents',
    statements: (dialect) => [
      `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'agent', type: 'text', default: 'claude' })}`,
      `ALTER TABLE "machines" ADD COLUMN ${columnSql(dialect, { name: 'agents', type: 'json', nullable: true })}`,
    ],
  },
  {
    // SQLite 9, PostgreSQL 5: the tokens a session used, from its agent's transcript (usage.md);
    // an older session has none on record.
    name: 'session-usage',
    statements: (dialect) => [`ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'usage', type: 'json', nullable: true })}`],
  },
  {
    // SQLite 10, PostgreSQL 6: one-time pairing codes (hashed) for phones (docs/decisions/hub.md).
    name: 'pair-codes',
    statements: (dialect) => createSchema(dialect, [PAIR_CODES_0010]),
  },
  {
    // SQLite 11, PostgreSQL 7: the agent seam on the wire (protocol 2). claude_session_id held
    // Codex's thread id too: renamed, values kept (both dialects rename a column in place). What a
    // session's agent can do from the phone, and what each of a machine's agents can; older rows
    // have none (nothing switchable).
    name: 'agent-capabilities',
    statements: (dialect) => [
      `ALTER TABLE "sessions" RENAME COLUMN "claude_session_id" TO "agent_session_id"`,
      `ALTER TABLE "sessions" ADD COLUMN ${columnSql(dialect, { name: 'capabilities', type: 'json', nullable: true })}`,
      `ALTER TABLE "machines" ADD COLUMN ${columnSql(dialect, { name: 'agent_capabilities', type: 'json', nullable: true })}`,
    ],
  },
  // SQLite 12, PostgreSQL 8: a session's parent and the reviews (issue 29; upgrades/reviews.ts).
  REVIEWS_UPGRADE,
  {
    // SQLite 13, PostgreSQL 9: which sub-agent asks a request (protocol AskedBy); older requests
    // were asked by the session's own agent.
    name: 'request-asked-by',
    statements: (dialect) => [`ALTER TABLE "requests" ADD COLUMN ${columnSql(dialect, { name: 'asked_by', type: 'json', nullable: true })}`],
  },
  // SQLite 14, PostgreSQL 10: the git worktree a session runs in (issue 30; upgrades/session-worktree.ts).
  SESSION_WORKTREE_UPGRADE,
  // SQLite 15, PostgreSQL 11: paired devices, their makers and refresh secrets (issue 38; upgrades/devices.ts).
  DEVICES_UPGRADE,
  // SQLite 16, PostgreSQL 12: the hash of a machine's secret its sessions prove (issue 40; upgrades/machine-vouch.ts).
  MACHINE_VOUCH_UPGRADE,
  {
    // SQLite 17, PostgreSQL 13: when the hub handed a prompt to its runner (issue 42: the queue on
    // the phone). Older rows stay null: a queued one may then be edited, and is handed over as before.
    name: 'prompt-handed',
    statements: (dialect) => [`ALTER TABLE "prompts" ADD COLUMN ${columnSql(dialect, { name: 'handed_at', type: 'time', nullable: true })}`],
  },
  // SQLite 18, PostgreSQL 14: the folders a session's agent was given, which a resume gives again (issue 40; upgrades/session-added-dirs.ts).
  SESSION_ADDED_DIRS_UPGRADE,
  // SQLite 19, PostgreSQL 15: conversations found on a machine, its switch (issue 40; upgrades/outside-sessions.ts).
  OUTSIDE_SESSIONS_UPGRADE,
  // SQLite 20, PostgreSQL 16: a found conversation's background session id (issue 40; upgrades/outside-background.ts).
  OUTSIDE_BACKGROUND_UPGRADE,
  // SQLite 21, PostgreSQL 17: scheduled prompts (issue 42; upgrades/schedules.ts).
  SCHEDULES_UPGRADE,
  // SQLite 22, PostgreSQL 18: rules tether proposes from repeated allows (issue 42; upgrades/project-rules.ts).
  PROJECT_RULES_UPGRADE,
  // SQLite 23, PostgreSQL 19: a session's usage limit, the reset continued, the person's choice (issue 42; upgrades/session-usage-limit.ts).
  SESSION_USAGE_LIMIT_UPGRADE,
  // SQLite 24, PostgreSQL 20: the unattended guard, a held continue, a prompt's maker (issue 42; upgrades/unattended-guard.ts).
  UNATTENDED_GUARD_UPGRADE,
  // SQLite 25, PostgreSQL 21: a namespace's continue-at-reset default (issue 42; upgrades/limit-continue-default.ts).
  LIMIT_CONTINUE_DEFAULT_UPGRADE,
];

/** The table each store records its versions in (the PostgreSQL database may hold others' tables). */
export const MIGRATIONS_TABLE: Readonly<Record<Dialect, string>> = { sqlite: 'schema_migrations', postgres: 'tether_schema_migrations' };

export type MigrationStep = { version: number; name: string; statements: string[] };

/** The newest version this hub knows, in the store's own numbering. */
export function knownVersion(dialect: Dialect): number {
  return HISTORY[dialect].length + UPGRADES.length;
}

/** The steps that bring a database at version `found` (0: empty) to this hub's schema. */
export function migrationPlan(options: { dialect: Dialect; found: number }): MigrationStep[] {
  const { dialect, found } = options;
  const known = knownVersion(dialect);
  if (found > known) throw schemaTooNew({ found, known });
  if (found === known) return [];
  if (found === 0) return [{ version: known, name: 'schema', statements: createSchema(dialect, TABLES) }];
  const base = HISTORY[dialect].length;
  const steps: MigrationStep[] = [
    ...HISTORY[dialect].map((m) => ({ version: m.version, name: m.name, statements: [m.sql] })),
    ...UPGRADES.map((u, i) => ({ version: base + i + 1, name: u.name, statements: u.statements(dialect) })),
  ];
  return steps.filter((step) => step.version > found);
}
