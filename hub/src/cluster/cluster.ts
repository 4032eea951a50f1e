// cluster.ts: several hubs behind one URL. When the hub has a PostgreSQL database, the hubs that
// share it form a cluster: socket.io rooms and broadcasts span them through
// `@socket.io/postgres-adapter` (LISTEN/NOTIFY on the same database, no second service), and the
// secrets every hub must agree on (the web-session signing key, the VAPID keys, the hub-to-hub
// link secret) live in one table of that database instead of each hub's TETHER_HOME.
//
//   hub A ─┐                       ┌─ broadcasts, fetchSockets, serverSideEmit (adapter)
//   hub B ─┼─ PostgreSQL ──────────┤
//   hub C ─┘                       └─ tether_cluster_secrets (first hub to start makes each one)
//
// Invariant: a secret is made once for the whole cluster (INSERT … ON CONFLICT DO NOTHING, then
// read back), so two hubs starting at the same moment still agree. Secrets are never logged.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createAdapter } from '@socket.io/postgres-adapter';

/** Heartbeats every second and a hub silent for 4 s is taken as gone: cross-hub requests
 *  (fetchSockets, acks) wait for every hub the adapter believes alive, so a SIGKILLed hub must be
 *  forgotten well inside the 5 s a runner has to reconnect elsewhere. */
export const CLUSTER_HEARTBEAT_MS = 1_000;
export const CLUSTER_HEARTBEAT_TIMEOUT_MS = 4_000;
/** The adapter's table for packets too big for NOTIFY (8000 bytes) or holding binary data. */
const ATTACHMENTS_TABLE = 'socket_io_attachments';
/** Pool size: the adapter holds one connection for LISTEN; the rest serve its inserts and the
 *  secret reads (the store has its own pool). */
const POOL_MAX = 4;
/** Advisory lock key for the cluster tables' setup (any fixed number; "tether" in ASCII). */
const SETUP_LOCK = 0x746574686572;

export type Cluster = {
  adapter: ReturnType<typeof createAdapter>;
  /** The named secret shared by every hub of the cluster, made by whichever hub asks first. */
  secret(name: string, make: () => string): Promise<string>;
  stop(): Promise<void>;
};

/** Random bytes as base64url: the form every shared secret is stored in. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export async function openCluster(options: { databaseUrl: string }): Promise<Cluster> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: POOL_MAX });
  // A dropped idle connection must not crash the hub; the pool replaces it.
  pool.on('error', (error) => console.error(`tether hub: cluster database connection: ${error.message}`));
  try {
    // Hubs that start together would race in CREATE TABLE IF NOT EXISTS (PostgreSQL can fail one
    // of them on its catalog's unique index): one at a time, under an advisory lock.
    const client = await pool.connect();
    try {
      await client.query(`SELECT pg_advisory_lock(${SETUP_LOCK})`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${ATTACHMENTS_TABLE} (id bigserial UNIQUE, created_at timestamptz DEFAULT NOW(), payload bytea)`);
      await client.query(`CREATE TABLE IF NOT EXISTS tether_cluster_secrets (name text PRIMARY KEY, value text NOT NULL, created_at timestamptz NOT NULL DEFAULT NOW())`);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${SETUP_LOCK})`).catch(() => {});
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot prepare the cluster tables: ${error instanceof Error ? error.message : String(error)}`);
  }
  const adapter = createAdapter(pool, {
    tableName: ATTACHMENTS_TABLE,
    heartbeatInterval: CLUSTER_HEARTBEAT_MS,
    heartbeatTimeout: CLUSTER_HEARTBEAT_TIMEOUT_MS,
    errorHandler: (error: Error) => console.error(`tether hub: cluster adapter: ${error.message}`),
  });
  return {
    adapter,
    async secret(name, make) {
      await pool.query(`INSERT INTO tether_cluster_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [name, make()]);
      const { rows } = await pool.query<{ value: string }>(`SELECT value FROM tether_cluster_secrets WHERE name = $1`, [name]);
      if (!rows[0]) throw new Error(`cluster secret "${name}" vanished`);
      return rows[0].value;
    },
    async stop() {
      await pool.end().catch(() => {});
    },
  };
}
