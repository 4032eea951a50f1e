import { mkdtempSync, rmSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { expect, it } from 'vitest';
import { runStoreContract } from '../store.contract.ts';
import { createSqliteStore } from './sqlite-store.ts';
import { knownVersion } from '../schema/migrations.ts';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'tether-store-'));
}

runStoreContract({
  name: 'sqlite',
  async create() {
    const dir = tempDir();
    const store = createSqliteStore({ path: join(dir, 'hub.sqlite') });
    return {
      store,
      async cleanup() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
});

it('sqlite store: WAL, a new database recorded at the newest version once, data survives reopen', async () => {
  const dir = tempDir();
  const path = join(dir, 'hub.sqlite');
  try {
    const store = createSqliteStore({ path });
    await store.insertToken({ token: { id: 't', namespace: 'a', hash: 'h', label: '', createdAt: 1, lastUsedAt: null, revokedAt: null } });
    await store.close();
    const again = createSqliteStore({ path });
    expect((await again.getToken({ id: 't' }))?.namespace).toBe('a');
    await again.close();
    const db = new Database(path);
    expect((db.query('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe('wal');
    const versions = db.query('SELECT version FROM schema_migrations').all() as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([knownVersion('sqlite')]);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('keeps the database, its -wal and -shm owner-only (0600), and tightens a file an older hub left 0644 (issue 19, finding 6)', async () => {
  const dir = tempDir();
  const path = join(dir, 'hub.sqlite');
  try {
    const store = createSqliteStore({ path });
    await store.insertToken({ token: { id: 't', namespace: 'a', hash: 'h', label: '', createdAt: 1, lastUsedAt: null, revokedAt: null } });
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    await store.close();
    chmodSync(path, 0o644);
    const again = createSqliteStore({ path });
    expect((statSync(path).mode & 0o777).toString(8)).toBe('600');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
