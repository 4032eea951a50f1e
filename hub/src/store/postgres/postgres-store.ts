// postgres-store.ts: the Store on PostgreSQL (`pg` Pool), for several hubs on one database. The schema
// and the queries are the ones SQLite uses (schema/, queries/): this file only connects and drives.
// Invariants, as in SQLite but across processes: a transaction is one pooled connection from BEGIN
// to COMMIT (rolled back on any error); rows a transaction must own are taken with FOR UPDATE.
import pg from 'pg';
import type { Store } from '../store.ts';
import type { Row } from '../rows.ts';
import type { SqlDriver, SqlRunner } from '../sql/driver.ts';
import { createSqlStore } from '../sql-store.ts';
import { migratePostgres } from './migrate.ts';
import { connectionError, redactUrl } from './connect.ts';

/** Connections per hub: socket handlers are short queries; more would only queue in PostgreSQL. */
const POOL_MAX = 10;
/** An unreachable host fails the start in this time instead of hanging. */
const CONNECT_TIMEOUT_MS = 10_000;
/** int8 (BIGINT, COUNT(*)): epoch milliseconds and counts all fit a JS number exactly. */
const INT8_OID = 20;

function runner(on: { query: pg.Pool['query'] }): SqlRunner {
  return {
    all: async (sql, params) => (await on.query(sql, params as unknown[])).rows as Row[],
    run: async (sql, params) => (await on.query(sql, params as unknown[])).rowCount ?? 0,
  };
}

function postgresDriver(pool: pg.Pool): SqlDriver {
  return {
    dialect: 'postgres',
    lockRows: ' FOR UPDATE',
    ...runner(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(runner(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    // Dead rows are pruned by autovacuum; a VACUUM here would not zero their bytes either.
    scrub: async () => {},
    close: () => pool.end(),
  };
}

export async function createPostgresStore(options: { url: string }): Promise<Store> {
  const types = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
  };
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: options.url, max: POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, types });
  } catch (error) {
    throw connectionError(options.url, error);
  }
  // A dropped idle connection must not crash the hub; the pool makes a new one on the next query.
  pool.on('error', (error) => console.error(`tether hub: database connection (${redactUrl(options.url)}): ${error.message}`));
  try {
    await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw connectionError(options.url, error);
  }
  return createSqlStore(postgresDriver(pool));
}
