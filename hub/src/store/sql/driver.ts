// driver.ts: what the one set of queries (queries/) needs from a database, so that the same SQL runs
// on bun:sqlite and on PostgreSQL. SQL is written with PostgreSQL's numbered placeholders ($1, $2…,
// a number may repeat); the SQLite driver reads them as SQLite's ?1, ?2…. Booleans bind as they are
// (SQLite stores 0/1, rows.ts reads both).
import type { Dialect } from '../schema/ddl.ts';
import type { Row } from '../rows.ts';

export interface SqlRunner {
  /** Rows of a SELECT or of a statement with RETURNING. */
  all(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** How many rows the statement changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface SqlDriver extends SqlRunner {
  dialect: Dialect;
  /** Runs `work` as one transaction that also holds the write lock its rows need: SQLite begins
   *  IMMEDIATE (one writer), PostgreSQL queries may lock rows with `lockRows` appended. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /** `FOR UPDATE` in PostgreSQL; empty in SQLite, whose write transaction already excludes others. */
  lockRows: string;
  /** After rows whose bytes must not outlive them were deleted (attachments): SQLite gives free
   *  pages back to the file system and truncates the WAL, so no old copy of a page stays in either
   *  (secure_delete already zeroed the pages the delete freed). PostgreSQL: nothing (docs/decisions/
   *  attachments.md says what VACUUM does and does not do there). */
  scrub(): Promise<void>;
  close(): Promise<void>;
}

export async function first(runner: SqlRunner, sql: string, params?: readonly unknown[]): Promise<Row | null> {
  return (await runner.all(sql, params))[0] ?? null;
}
