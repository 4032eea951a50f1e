// postgres-store.test.ts: the Store contract (hub/src/store/store.contract.ts) on PostgreSQL, each
// test on a fresh database of one throwaway cluster; plus what only a server database has to show:
// migrations under a lock when two hubs start at once, a schema newer than this hub refused untouched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresStore, StoreOpenError } from '@tether/hub';
import { runStoreContract } from '../../hub/src/store/store.contract.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';

let cluster: PostgresHandle;
beforeAll(async () => {
  cluster = await startPostgres();
});
afterAll(async () => {
  await cluster?.stop();
});

runStoreContract({
  name: 'postgres',
  async create() {
    const store = await createPostgresStore({ url: await cluster.createDatabase() });
    return { store, cleanup: () => store.close() };
  },
});

async function tables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

describe('postgres store: migrations', () => {
  it('two stores opening one empty database at once migrate it once', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = await Promise.all([createPostgresStore({ url }), createPostgresStore({ url })]);
    try {
      await a.insertToken({ token: { id: 't', namespace: 'n', hash: 'h', label: '', createdAt: 1, lastUsedAt: null, revokedAt: null } });
      expect((await b.getToken({ id: 't' }))?.namespace).toBe('n');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query(`SELECT version FROM tether_schema_migrations ORDER BY version`);
      await client.end();
      expect(rows.map((r) => r.version)).toEqual([1]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('refuses a database whose schema is newer than this hub, touching nothing', async () => {
    const url = await cluster.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`CREATE TABLE tether_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    await client.query(`INSERT INTO tether_schema_migrations VALUES (1, 'initial', 1), (99, 'from the future', 2)`);
    await client.end();
    const before = await tables(url);
    const error = await createPostgresStore({ url }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(String((error as Error).message)).toMatch(/schema is version 99, newer than this hub knows \(1\)/);
    expect(await tables(url)).toEqual(before);
  });
});
