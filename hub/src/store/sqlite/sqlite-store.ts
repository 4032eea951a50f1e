// sqlite-store.ts: the Store on bun:sqlite. One file per hub (<TETHER_HOME>/hub.sqlite), WAL so that
// `tether token …` can write while the hub runs, foreign keys on; the schema and the queries are the
// ones PostgreSQL uses (schema/, queries/): this file only opens the file and drives it.
// Invariants: one connection, so a transaction holds it alone: the driver queues every other
// statement behind an open transaction (an async transaction would otherwise take in statements of
// other calls between its awaits) and begins IMMEDIATE, taking the write lock at once, so another
// process's writer waits on busy_timeout instead of failing halfway.
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { Database, type Statement } from 'bun:sqlite';
import type { Store } from '../store.ts';
import { migrationPlan, MIGRATIONS_TABLE } from '../schema/migrations.ts';
import type { SqlDriver, SqlRunner } from '../sql/driver.ts';
import type { Row } from '../rows.ts';
import { createSqlStore } from '../sql-store.ts';

/** How long a writer waits for another process's lock (e.g. `tether token create`) before failing. */
const BUSY_TIMEOUT_MS = 5000;
const TABLE = MIGRATIONS_TABLE.sqlite;

/** Applies the migration plan in one immediate transaction (SQLite's DDL is transactional). */
function migrateSqlite(db: Database): void {
  db.transaction(() => {
    db.run(`CREATE TABLE IF NOT EXISTS ${TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const { v } = db.query(`SELECT COALESCE(MAX(version), 0) AS v FROM ${TABLE}`).get() as { v: number };
    for (const step of migrationPlan({ dialect: 'sqlite', found: v })) {
      for (const sql of step.statements) db.exec(sql);
      db.query(`INSERT INTO ${TABLE} (version, name, applied_at) VALUES (?, ?, ?)`).run(step.version, step.name, Date.now());
    }
  }).immediate();
}

/** Chats, approvals and token hashes: the owner's only. SQLite gives -wal and -shm the main file's
 *  mode, so the file is made 0600 before SQLite opens it; files of older hubs are tightened. */
function ownerOnly(path: string): void {
  if (path === ':memory:') return;
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
}

function isEmpty(db: Database): boolean {
  return (db.query('PRAGMA page_count').get() as { page_count: number }).page_count === 0;
}

function sqliteDriver(db: Database): SqlDriver {
  const statements = new Map<string, Statement>();
  // $1 → ?1: SQLite's numbered parameters bind like PostgreSQL's.
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql.replace(/\$(\d+)/g, '?$1'));
      statements.set(sql, statement);
    }
    return statement;
  };
  const direct: SqlRunner = {
    all: async (sql, params = []) => prepare(sql).all(...(params as never[])) as Row[],
    run: async (sql, params = []) => prepare(sql).run(...(params as never[])).changes,
  };
  /** Settled when the open transaction ends; null while none is open. */
  let busy: Promise<void> | null = null;
  const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
    while (busy) await busy;
    let done!: () => void;
    busy = new Promise<void>((resolve) => (done = resolve));
    try {
      return await work();
    } finally {
      busy = null;
      done();
    }
  };
  return {
    dialect: 'sqlite',
    lockRows: '',
    all: (sql, params) => (busy ? exclusive(() => direct.all(sql, params)) : direct.all(sql, params)),
    run: (sql, params) => (busy ? exclusive(() => direct.run(sql, params)) : direct.run(sql, params)),
    transaction: (work) =>
      exclusive(async () => {
        prepare('BEGIN IMMEDIATE').run();
        try {
          const result = await work(direct);
          prepare('COMMIT').run();
          return result;
        } catch (error) {
          if (db.inTransaction) prepare('ROLLBACK').run();
          throw error;
        }
      }),
    // Queued like a transaction (never between another's statements). incremental_vacuum gives the
    // free pages back (a no-op on a database made before auto_vacuum was set); the checkpoint copies
    // the zeroed pages into the file and TRUNCATE empties the WAL, where the pages with the deleted
    // bytes still were. A reader of another process (`tether token`) can keep the WAL from being
    // truncated this once: the next scrub does it.
    scrub: () =>
      exclusive(async () => {
        db.run('PRAGMA incremental_vacuum');
        db.run('PRAGMA wal_checkpoint(TRUNCATE)');
      }),
    close: async () => {
      while (busy) await busy;
      for (const statement of statements.values()) statement.finalize();
      db.close();
    },
  };
}

export function createSqliteStore(options: { path: string }): Store {
  ownerOnly(options.path);
  const db = new Database(options.path, { create: true, strict: true });
  db.run(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // Only a database without tables takes auto_vacuum (it must come before WAL, which writes the
  // header): a new one frees its pages back with incremental_vacuum (scrub). An older database keeps
  // NONE (changing it needs a VACUUM of the whole file); its free pages hold zeros (secure_delete).
  if (isEmpty(db)) db.run('PRAGMA auto_vacuum = INCREMENTAL');
  db.run('PRAGMA journal_mode = WAL');
  // Deleted rows are overwritten with zeros, their freed pages too (FAST would leave the overflow
  // pages of an attachment's bytes as they were): docs/decisions/attachments.md has the cost.
  db.run('PRAGMA secure_delete = ON');
  ownerOnly(options.path);
  // NORMAL is durable across process crashes in WAL mode (only an OS crash can lose the last commits).
  db.run('PRAGMA synchronous = NORMAL');
  db.run('PRAGMA foreign_keys = ON');
  try {
    migrateSqlite(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return createSqlStore(sqliteDriver(db));
}
