// temp-store.ts: a SQLite store in a fresh temp folder for a test that needs the store alone (no hub),
// and its removal. A test that reopens the store hands back the one it holds last. Only *.test.ts
// files import it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../store/sqlite/sqlite-store.ts';
import type { Store } from '../store/store.ts';

export type TempStore = { dir: string; store: Store };

/** `prefix` names the folder (a leftover one names its test file); the database is dir/hub.sqlite. */
export function openTempStore(prefix: string): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, store: createSqliteStore({ path: join(dir, 'hub.sqlite') }) };
}

export async function removeTempStore({ dir, store }: TempStore): Promise<void> {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
