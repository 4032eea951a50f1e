// migrate.ts (postgres): brings the database to this hub's schema at start (the plan is
// schema/migrations.ts, shared with SQLite). Every pending step runs in ONE transaction holding a
// transaction-level advisory lock, so two hubs starting at once migrate once (the second waits, then
// finds nothing to do) and a failure leaves nothing half-done. A database already past this hub's
// newest version is refused before anything is touched.
import type pg from 'pg';
import { migrationPlan, MIGRATIONS_TABLE } from '../schema/migrations.ts';

/** Our advisory lock key (any constant unique to tether; "tether" in ASCII). */
const MIGRATION_LOCK = 0x746574686572;
const TABLE = MIGRATIONS_TABLE.postgres;

export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const { rows } = await client.query<{ v: number }>(`SELECT COALESCE(MAX(version), 0)::int AS v FROM ${TABLE}`);
    for (const step of migrationPlan({ dialect: 'postgres', found: rows[0]?.v ?? 0 })) {
      for (const sql of step.statements) await client.query(sql);
      await client.query(`INSERT INTO ${TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`, [step.version, step.name, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
