// open.ts: the hub's store from its configuration: PostgreSQL when a database URL is given (several
// hubs share it), else SQLite under TETHER_HOME. Both migrate on open. PostgreSQL's client loads only
// for a hub that uses it (docs/decisions/hub.md, "Start-up").
import type { Store } from './store.ts';
import { createSqliteStore } from './sqlite/sqlite-store.ts';

export async function openStore(options: { databaseUrl?: string | undefined; sqlitePath: string }): Promise<Store> {
  if (options.databaseUrl) return (await import('./postgres/postgres-store.ts')).createPostgresStore({ url: options.databaseUrl });
  return createSqliteStore({ path: options.sqlitePath });
}
