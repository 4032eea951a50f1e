// hub-store.ts: the hub's store, opened directly by a verb run on the hub's machine (`tether token`,
// `tether pair --namespace`): its PostgreSQL database when it runs with one (`--database`, or
// TETHER_DATABASE_URL), else the SQLite file under TETHER_HOME (WAL lets it write while the hub runs).
// Not a verb.
import { mkdirSync } from 'node:fs';
import type { Store } from '@tether/hub';
import { CommandError } from './command.ts';
import { tetherPaths } from '../config/paths.ts';

export async function openHubStore(options: { database: string | undefined }): Promise<Store> {
  const { openStore, StoreOpenError } = await import('@tether/hub');
  const paths = tetherPaths();
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const databaseUrl = options.database ?? process.env.TETHER_DATABASE_URL;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new CommandError('--database must be a postgres:// URL');
  return openStore({ databaseUrl, sqlitePath: paths.hubDb }).catch((error: unknown) => {
    throw error instanceof StoreOpenError ? new CommandError(error.message) : error;
  });
}
