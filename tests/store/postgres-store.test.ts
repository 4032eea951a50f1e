// postgres-store.test.ts: the Store contract (hub/src/store/store.contract.ts) on PostgreSQL, each
// test on a fresh database of one throwaway cluster; plus what only a server database has to show:
// migrations under a lock when two hubs start at once, a schema newer than this hub refused untouched,
// and a database today's hub made (its shipped migration) opened as it is, with the schema of tables.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore, StoreOpenError } from '@tether/hub';
import { ChatMessageInputSchema } from '@tether/shared';
import { runStoreContract } from '../../hub/src/store/store.contract.ts';
import { HISTORY, knownVersion } from '../../hub/src/store/schema/migrations.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';
import { plantNewerSchema, publicTables, withClient } from '../harness/postgres-client.ts';

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

/** A database as today's hub left it: its shipped migration, recorded as it recorded it. */
async function shippedDatabase(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(`CREATE TABLE tether_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    for (const migration of HISTORY.postgres) {
      await client.query(migration.sql);
      await client.query(`INSERT INTO tether_schema_migrations VALUES ($1, $2, 1)`, [migration.version, migration.name]);
    }
  });
}

/** Columns, constraints and indexes of the public schema, in PostgreSQL's words. */
async function shape(url: string): Promise<unknown> {
  return withClient(url, async (client) => {
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1, 2`,
    );
    const constraints = await client.query(
      `SELECT conrelid::regclass::text AS table_name, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2, 3`,
    );
    const indexes = await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`);
    return { columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows };
  });
}

describe('postgres store: migrations', () => {
  it('two stores opening one empty database at once migrate it once', async () => {
    const url = await cluster.createDatabase();
    const [a, b] = await Promise.all([createPostgresStore({ url }), createPostgresStore({ url })]);
    try {
      await a.insertToken({ token: { id: 't', namespace: 'n', hash: 'h', label: '', createdAt: 1, lastUsedAt: null, revokedAt: null, kind: 'access', parentId: null } });
      expect((await b.getToken({ id: 't' }))?.namespace).toBe('n');
      const { rows } = await withClient(url, (client) => client.query(`SELECT version FROM tether_schema_migrations ORDER BY version`));
      // A new database is made from tables.ts at once and records the newest version only.
      expect(rows.map((r) => r.version)).toEqual([knownVersion('postgres')]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("makes a new database exactly like today's shipped migration and the upgrades since did", async () => {
    const old = await cluster.createDatabase();
    await shippedDatabase(old);
    await (await createPostgresStore({ url: old })).close();
    const fresh = await cluster.createDatabase();
    await (await createPostgresStore({ url: fresh })).close();
    expect(await shape(fresh)).toEqual(await shape(old));
  });

  it("opens a database today's hub made, keeps its data and goes on from it", async () => {
    const url = await cluster.createDatabase();
    await shippedDatabase(url);
    const sid = '11111111-1111-4111-8111-111111111111';
    await withClient(url, async (client) => {
      await client.query(`INSERT INTO sessions (id, namespace, title, cwd, launch_kind, status, claude_session_id, permission_mode, desk_attached, last_seq, created_at, updated_at)
                          VALUES ($1, 'alpha', 'old', '/p', 'pty', 'idle', 'c0ffee-1', 'default', TRUE, 1, 5, 5)`, [sid]);
      await client.query(`INSERT INTO messages VALUES ($1, 1, 'm1', '{"id":"m1","role":"user","content":[],"createdAt":1,"claudeSessionId":"c0ffee-1"}')`, [sid]);
      await client.query(`INSERT INTO requests (id, namespace, session_id, kind, tool_name, tool_input, created_at) VALUES ('r1', 'alpha', $1, 'permission', 'Bash', '{}', 100)`, [sid]);
      await client.query(`INSERT INTO tokens (id, namespace, hash, label, created_at) VALUES ('tok_a', 'alpha', 'ha', 'laptop', 1), ('tok_p', 'alpha', 'hp', 'paired device 2026-11-30 iPhone Safari', 2)`);
    });
    const store = await createPostgresStore({ url });
    try {
      expect(await store.getSession({ namespace: 'alpha', sessionId: sid })).toMatchObject({ title: 'old', deskAttached: true, lastSeq: 1, pendingCount: 1 });
      const next = ChatMessageInputSchema.parse({ id: 'm2', role: 'user', content: [{ type: 'text', text: 'hi' }], createdAt: 2 });
      expect((await store.appendMessages({ namespace: 'alpha', sessionId: sid, messages: [next] }))?.seqs).toEqual([2]);
      const resolved = await store.resolveRequest({ namespace: 'alpha', requestId: 'r1', outcome: 'answered', answer: { decision: 'allow' }, answeredBy: 'phone', device: null, at: 350 });
      expect(resolved).toMatchObject({ kind: 'resolved', resolution: { waitedMs: 250 } });
      // The upgrades since (pin and archive times, the agent, token usage, capabilities): empty or
      // claude on the old row, and usable; claude_session_id carried over as agentSessionId, in the
      // row and in a message stored under the old key.
      expect(await store.getSession({ namespace: 'alpha', sessionId: sid })).toMatchObject({ pinnedAt: null, archivedAt: null, agent: 'claude', usage: null, agentSessionId: 'c0ffee-1', capabilities: null, parentId: null, worktree: null });
      expect(await store.listReviews({ namespace: 'alpha', parentId: sid })).toEqual([]);
      expect((await store.listMessages({ namespace: 'alpha', sessionId: sid, after: 0, limit: 10 }))?.messages[0]).toMatchObject({ id: 'm1', agentSessionId: 'c0ffee-1' });
      const usage = { inputTokens: 5, cachedInputTokens: 0, outputTokens: 2, contextTokens: 7, contextWindow: null };
      expect(await store.updateSession({ namespace: 'alpha', sessionId: sid, patch: { usage }, now: 401 })).toMatchObject({ usage });
      expect(await store.pinSession({ namespace: 'alpha', sessionId: sid, pinned: true, now: 400 })).toMatchObject({ pinnedAt: 400 });
      // The session-worktree upgrade: none on the old row, and one can be recorded. One written
      // before worktrees recorded their base (no `base` in the JSON) reads with none.
      const older = { path: '/p.worktrees/fix', branch: 'fix', repo: '/p', removedAt: null };
      expect(await store.setSessionWorktree({ namespace: 'alpha', sessionId: sid, worktree: older as typeof older & { base: null }, now: 402 })).toMatchObject({ worktree: { ...older, base: null } });
      // The devices upgrade: a token a pairing minted before is a device, the rest access tokens.
      expect(await store.getToken({ id: 'tok_a' })).toMatchObject({ kind: 'access', parentId: null });
      expect(await store.getToken({ id: 'tok_p' })).toMatchObject({ kind: 'device', parentId: null });
    } finally {
      await store.close();
    }
    const versions = await withClient(url, async (client) => (await client.query(`SELECT version FROM tether_schema_migrations ORDER BY 1`)).rows);
    expect(versions.map((r) => r.version)).toEqual(Array.from({ length: knownVersion('postgres') }, (_, i) => i + 1));
  });

  it('refuses a database whose schema is newer than this hub, touching nothing', async () => {
    const url = await cluster.createDatabase();
    await plantNewerSchema(url, { version: 99, name: 'from the future' });
    const before = await publicTables(url);
    const error = await createPostgresStore({ url }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(String((error as Error).message)).toContain(`schema is version 99, newer than this hub knows (${knownVersion('postgres')})`);
    expect(await publicTables(url)).toEqual(before);
  });
});
