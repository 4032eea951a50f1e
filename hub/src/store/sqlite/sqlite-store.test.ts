import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { expect, it } from 'vitest';
import { runStoreContract } from '../store.contract.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { openTempStore, removeTempStore } from '../../testing/temp-store.ts';
import { knownVersion } from '../schema/migrations.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tether-store-'));
}

/** Runs `test` on the path of a database file in a fresh temp folder, removed after it. */
async function inDatabaseFile(test: (path: string) => Promise<void>): Promise<void> {
  const dir = tempDir();
  try {
    await test(join(dir, 'hub.sqlite'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One access token, so the file has a row to survive a reopen. */
const ONE_TOKEN = { id: 't', namespace: 'a', hash: 'h', label: '', createdAt: 1, lastUsedAt: null, revokedAt: null, kind: 'access', parentId: null } as const;

runStoreContract({
  name: 'sqlite',
  async create() {
    const temp = openTempStore('tether-store-');
    return { store: temp.store, cleanup: () => removeTempStore(temp) };
  },
});

it('sqlite store: WAL, a new database recorded at the newest version once, data survives reopen', () =>
  inDatabaseFile(async (path) => {
    const store = createSqliteStore({ path });
    await store.insertToken({ token: ONE_TOKEN });
    await store.close();
    const again = createSqliteStore({ path });
    expect((await again.getToken({ id: 't' }))?.namespace).toBe('a');
    await again.close();
    const db = new Database(path);
    expect((db.query('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    const versions = db.query('SELECT version FROM schema_migrations').all() as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([knownVersion('sqlite')]);
    db.close();
  }));

it('keeps the database, its -wal and -shm owner-only (0600), and tightens a file an older hub left 0644 (issue 19, finding 6)', () =>
  inDatabaseFile(async (path) => {
    const store = createSqliteStore({ path });
    await store.insertToken({ token: ONE_TOKEN });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    await store.close();
    chmodSync(path, 0o644);
    const again = createSqliteStore({ path });
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    await again.close();
  }));

/** How often `marker` is in the database file and in its WAL. */
function copies(path: string, marker: Buffer): number {
  let n = 0;
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + 1)) n += 1;
  }
  return n;
}

async function storeAttachment(store: ReturnType<typeof createSqliteStore>, marker: Buffer) {
  const sessionId = randomUUID();
  await store.registerSession({ namespace: 'a', registration: { id: sessionId, machineId: null, title: '', cwd: '/w', launchKind: 'pty', agent: 'claude', status: 'idle', agentSessionId: null, capabilities: null, model: null, permissionMode: 'default', deskAttached: false, addedDirs: [] }, now: 1 });
  const data = new Uint8Array(Buffer.from(marker.toString().repeat(5000)));
  const attachment = { id: randomUUID(), sessionId, name: 'x.txt', mediaType: 'text/plain' as const, size: data.length, createdAt: 1 };
  await store.addAttachment({ namespace: 'a', attachment, data, caps: { perSession: 50, sessionBytes: 1e8, namespaceBytes: 1e8 } });
  return sessionId;
}

it('a new database frees pages back (auto_vacuum INCREMENTAL) and zeroes what a delete frees (secure_delete)', () =>
  inDatabaseFile(async (path) => {
    const store = createSqliteStore({ path });
    const marker = Buffer.from('NEW-DATABASE-SECRET-');
    const sessionId = await storeAttachment(store, marker);
    const db = new Database(path, { readonly: true });
    expect((db.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(2);
    db.close();
    expect(copies(path, marker)).toBeGreaterThan(0);
    expect(await store.deleteSessionAttachments({ namespace: 'a', sessionId })).toBe(1);
    expect(copies(path, marker)).toBe(0);
    await store.close();
  }));

it('a database made before auto_vacuum keeps working as it is, and its deleted attachment bytes are gone too (zeroed in free pages)', () =>
  inDatabaseFile(async (path) => {
    // An older hub's file: tables already there, auto_vacuum NONE (changing it would need a VACUUM).
    const old = new Database(path, { create: true });
    old.run('PRAGMA journal_mode = WAL');
    old.run('CREATE TABLE older_hub (x INTEGER)');
    old.close();
    const store = createSqliteStore({ path });
    const marker = Buffer.from('OLD-DATABASE-SECRET-');
    const sessionId = await storeAttachment(store, marker);
    expect(await store.deleteSessionAttachments({ namespace: 'a', sessionId })).toBe(1);
    expect(copies(path, marker)).toBe(0);
    const db = new Database(path, { readonly: true });
    expect((db.query('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum).toBe(0);
    db.close();
    await store.close();
  }));
