// paths.ts: where tether keeps its files. TETHER_HOME (default ~/.tether) holds the hub's database,
// this user's saved hub login, the machine id and runner outboxes. Never anything under ~/.claude.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The file in TETHER_HOME where a running hub records the https URL a phone opens. */
export const PHONE_URL_FILE = 'phone-url';

export function tetherHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TETHER_HOME && env.TETHER_HOME.length > 0 ? env.TETHER_HOME : join(homedir(), '.tether');
}

export function tetherPaths(env: NodeJS.ProcessEnv = process.env) {
  const home = tetherHome(env);
  return {
    home,
    /** The hub's SQLite database (hub machine only). */
    hubDb: join(home, 'hub.sqlite'),
    /** The hub's signing secret for web sessions, created on first start (mode 0600). */
    hubSecret: join(home, 'hub-secret'),
    /** This user's `tether auth login` (mode 0600). */
    credentials: join(home, 'credentials.json'),
    /** Per-session on-disk outboxes for messages the hub has not acked yet. */
    outbox: join(home, 'outbox'),
    machineId: join(home, 'machine-id'),
    /** The machine's secret (mode 0600): its daemon registers the hash, its runners prove the claim. */
    machineSecret: join(home, 'machine-secret'),
    /** The https URL a phone opens, recorded by a running `tether hub` for `tether pair --namespace`
     *  (absent when the hub has none). */
    phoneUrl: join(home, PHONE_URL_FILE),
  };
}
