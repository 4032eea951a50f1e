// migrate.ts (postgres): brings the database to this hub's schema at start. Every pending migration
// runs in ONE transaction holding a transaction-level advisory lock, so two hubs starting at once
// migrate once (the second waits, then finds nothing to do) and a failure leaves nothing half-done.
// A database already past this hub's newest version is refused before anything is touched.
import type pg from 'pg';
import { schemaTooNew } from '../store.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';

/** Our advisory lock key (any constant unique to tether; "tether" in ASCII). */
const MIGRATION_LOCK = 0x746574686572;
/** Named for tether: the database may be shared with other tables (the cluster adapter's, …). */
export const MIGRATIONS_TABLE = 'tether_schema_migrations';

export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const { rows } = await client.query<{ v: number }>(`SELECT COALESCE(MAX(version), 0)::int AS v FROM ${MIGRATIONS_TABLE}`);
    const found = rows[0]?.v ?? 0;
    const known = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]!.version;
    if (found > known) throw schemaTooNew({ found, known });
    for (const migration of POSTGRES_MIGRATIONS) {
      if (migration.version <= found) continue;
      await client.query(migration.sql);
      await client.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`, [migration.version, migration.name, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
