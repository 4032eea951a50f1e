// postgres-client.ts (harness): what a test reads or plants in one database of the throwaway cluster
// (postgres.ts) behind the hub's back: a client held for the length of some work, the tables of the
// public schema, and the record a newer hub's schema leaves.
import pg from 'pg';

/** `work` with a client of the database at `url`, ended afterwards whatever happened. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The names of the public schema's tables, sorted. */
export function publicTables(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    return rows.map((r) => r.name);
  });
}

/** The migrations table as a hub of schema `version` would leave it: version 1 and that one. */
export function plantNewerSchema(url: string, newer: { version: number; name: string }): Promise<void> {
  return withClient(url, async (client) => {
    await client.query(`CREATE TABLE tether_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    await client.query(`INSERT INTO tether_schema_migrations VALUES (1, 'initial', 1), ($1, $2, 2)`, [newer.version, newer.name]);
  });
}
