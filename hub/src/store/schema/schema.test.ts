// schema.test.ts (SQLite): a database today's hubs made keeps working, and ends up with exactly the
// schema of tables.ts. "Today's" is the shipped migrations in history/, applied the way hubs applied
// them (one transaction each, recorded in schema_migrations). PostgreSQL's twin is in
// tests/store/postgres-store.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistrationSchema, ChatMessageInputSchema } from '@tether/shared';
import { createSqliteStore } from '../sqlite/sqlite-store.ts';
import { HISTORY, knownVersion } from './migrations.ts';
import { TABLES } from './tables.ts';

const S1 = '11111111-1111-4111-8111-111111111111';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-schema-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A database as a hub that knew migrations 1..upTo left it. */
function shippedDatabase(path: string, upTo: number): Database {
  const db = new Database(path, { create: true });
  db.run(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  for (const migration of HISTORY.sqlite.slice(0, upTo)) {
    db.transaction(() => {
      db.exec(migration.sql);
      db.query(`INSERT INTO schema_migrations VALUES (?, ?, ?)`).run(migration.version, migration.name, 1);
    })();
  }
  return db;
}

/** What a table is, in SQLite's words: columns by name, keys, indexes, references. */
function shape(path: string): Record<string, unknown> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, unknown> = {};
    for (const table of TABLES) {
      const columns = (db.query(`PRAGMA table_info("${table.name}")`).all() as Record<string, unknown>[])
        .map((c) => `${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`)
        .sort();
      const indexes = (db.query(`PRAGMA index_list("${table.name}")`).all() as { name: string; unique: number; origin: string }[])
        .map((i) => `${i.origin} unique=${i.unique} (${(db.query(`PRAGMA index_info("${i.name}")`).all() as { name: string }[]).map((c) => c.name).join(', ')})`)
        .sort();
      const references = (db.query(`PRAGMA foreign_key_list("${table.name}")`).all() as Record<string, unknown>[]).map((f) => `${f.from} -> ${f.table}(${f.to}) ${f.on_delete}`);
      out[table.name] = { columns, indexes, references };
    }
    out.tables = (db.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[]).map((t) => t.name);
    return out;
  } finally {
    db.close();
  }
}

describe('schema (SQLite)', () => {
  it('a new database has exactly the tables, columns, keys and indexes of today\'s shipped migrations and the upgrades since', async () => {
    shippedDatabase(join(dir, 'old.sqlite'), HISTORY.sqlite.length).close();
    await createSqliteStore({ path: join(dir, 'old.sqlite') }).close();
    await createSqliteStore({ path: join(dir, 'new.sqlite') }).close();
    expect(shape(join(dir, 'new.sqlite'))).toEqual(shape(join(dir, 'old.sqlite')));
  });

  it('the upgrades since the shipped migrations add the session\'s pin and archive times (empty), its agent (claude) and carry claude_session_id over as agentSessionId on old rows', async () => {
    const path = join(dir, 'hub.sqlite');
    const old = shippedDatabase(path, HISTORY.sqlite.length);
    old.run(`INSERT INTO sessions (id, namespace, title, cwd, launch_kind, status, claude_session_id, permission_mode, desk_attached, last_seq, created_at, updated_at, ended_at)
             VALUES ('${S1}', 'alpha', 'old', '/p', 'pty', 'ended', 'c0ffee-1', 'default', 0, 1, 5, 5, 6)`);
    old.run(`INSERT INTO messages VALUES ('${S1}', 1, 'm1', '{"id":"m1","role":"user","content":[],"createdAt":1,"claudeSessionId":"c0ffee-1"}')`);
    old.run(`INSERT INTO machines (namespace, id, name, os, user, home, online, last_seen_at) VALUES ('alpha', 'm1', 'box', 'linux', 'me', '/home/me', 0, 5)`);
    old.run(`INSERT INTO prompts (id, namespace, session_id, text, status, reason, created_at, updated_at) VALUES ('${S1}', 'alpha', '${S1}', 'queued before', 'queued', NULL, 5, 5)`);
    old.run(`INSERT INTO tokens (id, namespace, hash, label, created_at) VALUES ('tok_a', 'alpha', 'ha', 'laptop', 1), ('tok_p', 'alpha', 'hp', 'paired device 2026-11-30 iPhone Safari', 2)`);
    old.close();
    const store = createSqliteStore({ path });
    try {
      // claude_session_id is carried over as agentSessionId (the row, and a message stored under the
      // old key); the session and the machine state no capabilities (nothing switchable).
      expect(await store.getSession({ namespace: 'alpha', sessionId: S1 })).toMatchObject({ pinnedAt: null, archivedAt: null, agent: 'claude', usage: null, agentSessionId: 'c0ffee-1', capabilities: null, parentId: null, worktree: null });
      expect(await store.listReviews({ namespace: 'alpha', parentId: S1 })).toEqual([]);
      expect((await store.listMessages({ namespace: 'alpha', sessionId: S1, after: 0, limit: 10 }))?.messages[0]).toMatchObject({ id: 'm1', agentSessionId: 'c0ffee-1' });
      expect(await store.listMachines({ namespace: 'alpha' })).toMatchObject([{ id: 'm1', agents: ['claude'], capabilities: {} }]);
      expect(await store.archiveSession({ namespace: 'alpha', sessionId: S1, archived: true, now: 7 })).toMatchObject({ kind: 'ok', session: { archivedAt: 7 } });
      // The session-worktree upgrade: none on the old row (above), and one can be recorded. One
      // written before worktrees recorded their base (no `base` in the JSON) reads with none.
      const older = { path: '/p.worktrees/fix', branch: 'fix', repo: '/p', removedAt: null };
      expect(await store.setSessionWorktree({ namespace: 'alpha', sessionId: S1, worktree: older as typeof older & { base: null }, now: 8 })).toMatchObject({ worktree: { ...older, base: null } });
      // The devices upgrade: a token a pairing minted before is a device (no refresh secret: it signs
      // in again after its 12 h session, as it did); the rest are access tokens; nobody's parent.
      expect(await store.getToken({ id: 'tok_a' })).toMatchObject({ kind: 'access', parentId: null });
      expect(await store.getToken({ id: 'tok_p' })).toMatchObject({ kind: 'device', parentId: null });
      expect(await store.getDeviceRefresh({ id: 'tok_p' })).toMatchObject({ hash: null, prevHash: null });
      // The machine-vouch upgrade: an older daemon's machine vouches for nothing (its claims stand).
      expect(await store.getMachineVouch({ namespace: 'alpha', machineId: 'm1' })).toEqual({ vouch: null });
      expect(await store.getMachineVouch({ namespace: 'beta', machineId: 'm1' })).toBeNull();
      // The prompt-handed upgrade: a prompt queued before was never handed over (it may be edited).
      expect(await store.listPrompts({ namespace: 'alpha', sessionId: S1 })).toMatchObject([{ text: 'queued before', handedAt: null }]);
      // The session-added-dirs upgrade: an older session gave its agent no folders on record.
      expect(await store.getSession({ namespace: 'alpha', sessionId: S1 })).toMatchObject({ addedDirs: [] });
      // The outside-sessions upgrade: an older machine finds nothing until switched on, its index empty.
      expect((await store.listMachines({ namespace: 'alpha' })).map((m) => m.outside)).toEqual([false]);
      expect(await store.listOutside({ namespace: 'alpha', machineId: 'm1', q: '', offset: 0, limit: 10 })).toEqual({ sessions: [], total: 0 });
      await store.recordOutside({ namespace: 'alpha', machineId: 'm1', entries: [{ agent: 'claude', agentSessionId: '11111111-1111-4111-8111-111111111111', folder: '/p', title: 't', lastActivity: 5, sizeBytes: 1, live: true, backgroundId: 'f35b2b97' }], removed: [], sweepBefore: null, now: 9 }); // outside-background: a found background session keeps its id
      expect((await store.listOutside({ namespace: 'alpha', machineId: 'm1', q: '', offset: 0, limit: 10 })).sessions).toMatchObject([{ backgroundId: 'f35b2b97' }]);
    } finally {
      await store.close();
    }
  });

  it('opens a database today\'s hub made, keeps its data and goes on from it', async () => {
    const path = join(dir, 'hub.sqlite');
    const old = shippedDatabase(path, HISTORY.sqlite.length);
    old.run(`INSERT INTO sessions (id, namespace, title, cwd, launch_kind, status, permission_mode, desk_attached, last_seq, created_at, updated_at)
             VALUES ('${S1}', 'alpha', 'old', '/p', 'pty', 'idle', 'default', 1, 1, 5, 5)`);
    old.run(`INSERT INTO messages VALUES ('${S1}', 1, 'm1', '{"id":"m1","role":"user","content":[],"createdAt":1}')`);
    old.run(`INSERT INTO requests (id, namespace, session_id, kind, tool_name, tool_input, created_at) VALUES ('r1', 'alpha', '${S1}', 'permission', 'Bash', '{}', 100)`);
    old.close();

    const store = createSqliteStore({ path });
    try {
      expect(await store.getSession({ namespace: 'alpha', sessionId: S1 })).toMatchObject({ title: 'old', deskAttached: true, lastSeq: 1, pendingCount: 1 });
      const next = ChatMessageInputSchema.parse({ id: 'm2', role: 'user', content: [{ type: 'text', text: 'hi' }], createdAt: 2 });
      expect((await store.appendMessages({ namespace: 'alpha', sessionId: S1, messages: [next] }))?.seqs).toEqual([2]);
      expect(await store.resolveRequest({ namespace: 'alpha', requestId: 'r1', outcome: 'answered', answer: { decision: 'allow' }, answeredBy: 'phone', device: null, at: 350 })).toMatchObject({
        kind: 'resolved',
        resolution: { waitedMs: 250 },
      });
      const again = await store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/p', launchKind: 'pty', status: 'idle' }), now: 9 });
      expect(again).toMatchObject({ kind: 'ok', created: false, session: { lastSeq: 2 } });
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect((db.query('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v).toBe(knownVersion('sqlite'));
    db.close();
  });

  it('brings a database of an older hub (migration 2) up to the same schema', async () => {
    shippedDatabase(join(dir, 'older.sqlite'), 2).close();
    await createSqliteStore({ path: join(dir, 'older.sqlite') }).close();
    await createSqliteStore({ path: join(dir, 'new.sqlite') }).close();
    const { tables: _olderTables, ...older } = shape(join(dir, 'older.sqlite'));
    const { tables: _newTables, ...fresh } = shape(join(dir, 'new.sqlite'));
    // Columns an upgrade adds come last in SQLite: compared by name, so the order does not matter.
    expect(older).toEqual(fresh);
  });

  it('refuses a database a newer hub migrated, touching nothing', () => {
    const path = join(dir, 'future.sqlite');
    const db = shippedDatabase(path, HISTORY.sqlite.length);
    db.run(`INSERT INTO schema_migrations VALUES (99, 'from the future', 2)`);
    db.close();
    expect(() => createSqliteStore({ path })).toThrow(`schema is version 99, newer than this hub knows (${knownVersion('sqlite')})`);
  });
});

// Apart from the upgrades' effects above (that describe would pass 120 lines): each upgrade's number.
describe('schema versions (SQLite)', () => {
  it('records each upgrade since the shipped migrations under its own number', async () => {
    const path = join(dir, 'hub.sqlite');
    shippedDatabase(path, HISTORY.sqlite.length).close();
    await createSqliteStore({ path }).close();
    const db = new Database(path, { readonly: true });
    const versions = (db.query('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number; name: string }[]).slice(HISTORY.sqlite.length);
    db.close();
    expect(versions).toEqual([
      { version: 6, name: 'session-pin-archive' },
      { version: 7, name: 'attachments' },
      { version: 8, name: 'agents' },
      { version: 9, name: 'session-usage' },
      { version: 10, name: 'pair-codes' },
      { version: 11, name: 'agent-capabilities' },
      { version: 12, name: 'reviews' },
      { version: 13, name: 'request-asked-by' },
      { version: 14, name: 'session-worktree' },
      { version: 15, name: 'devices' },
      { version: 16, name: 'machine-vouch' },
      { version: 17, name: 'prompt-handed' },
      { version: 18, name: 'session-added-dirs' },
      { version: 19, name: 'outside-sessions' },
      { version: 20, name: 'outside-background' },
      { version: 21, name: 'schedules' },
      { version: 22, name: 'project-rules' },
      { version: 23, name: 'session-usage-limit' },
      { version: 24, name: 'unattended-guard' },
      { version: 25, name: 'limit-continue-default' },
    ]);
  });
});
