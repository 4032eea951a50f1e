// postgres.ts (harness): a throwaway PostgreSQL cluster (Debian's initdb + pg_ctl) in a temp dir on a
// free 127.0.0.1 port, its unix socket in that dir too, trust auth; `createDatabase()` makes a fresh,
// empty database per test or suite. PostgreSQL refuses to run as root, so as root (CI) the server
// runs as the `postgres` system user, or as a `tether-pg` system user made here when that is missing
// (a machine where only the binaries were unpacked).
//
// Invariants: a missing PostgreSQL is an error naming the Debian package `postgresql`, never a skip;
// stop() stops the server (immediate mode) and removes its directory.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './balancer.ts';

export type PostgresHandle = {
  /** The cluster's own `postgres` database (shared by whoever uses this handle). */
  url: string;
  port: number;
  /** A new empty database on this cluster; its URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
};

const MISSING = 'PostgreSQL is missing (no initdb under /usr/lib/postgresql): install the Debian package postgresql (apt-get install -y postgresql)';
/** The system user the server runs as when we are root and Debian's `postgres` user is missing. */
const FALLBACK_USER = 'tether-pg';

function binDir(): string {
  if (process.env.TETHER_PG_BIN) return process.env.TETHER_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error(MISSING);
}

/** A system tool (runuser, useradd) by absolute path: they live in sbin, which a root shell's PATH
 *  has but a CI job's or `env -i`'s may not (then spawning 'runuser' failed with ENOENT). */
function systemTool(name: string): string {
  for (const dir of ['/usr/sbin', '/sbin', '/usr/bin', '/bin']) if (existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`${name} is missing (looked in /usr/sbin, /sbin, /usr/bin, /bin): PostgreSQL cannot be started as another user than root without it`);
}

function userIds(name: string): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** An unprivileged user to run the server as (root only). */
function serverUser(): { name: string; uid: number; gid: number } {
  for (const name of ['postgres', FALLBACK_USER]) {
    const ids = userIds(name);
    if (ids) return { name, ...ids };
  }
  const made = spawnSync(systemTool('useradd'), ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', FALLBACK_USER], { encoding: 'utf8' });
  // Two test files may race to create it: the loser's "already exists" is fine.
  const ids = userIds(FALLBACK_USER);
  if (!ids) throw new Error(`cannot create the system user ${FALLBACK_USER} to run PostgreSQL as (not as root): ${made.stderr.trim()}`);
  return { name: FALLBACK_USER, ...ids };
}

let databases = 0;
/** A port picked free can be taken by another test's socket before the server binds it. */
const PORT_TRIES = 3;

/** Starts the cluster on a free port; its server log is in the error when it cannot start (a CI
 *  run saw only "pg_ctl: could not start server", the log deleted with the temp dir). */
async function startServer(o: { run: (tool: string, args: string[]) => void; data: string; dir: string }): Promise<number> {
  const logFile = join(o.dir, 'server.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      o.run('pg_ctl', ['-D', o.data, '-l', logFile, '-w', '-o', `-p ${port} -k ${o.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start']);
      return port;
    } catch (error) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-15).join('\n') : '(no server log)';
      if (attempt < PORT_TRIES && /could not bind|Address already in use/i.test(log)) continue;
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nserver log (port ${port}):\n${log}`);
    }
  }
}

export async function startPostgres(): Promise<PostgresHandle> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'tether-pg-'));
  const data = join(dir, 'data');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const user = asRoot ? serverUser() : null;
  if (user) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const argv = user ? ['-u', user.name, '--', join(bin, tool), ...args] : args;
    const result = spawnSync(user ? systemTool('runuser') : join(bin, tool), argv, { encoding: 'utf8', timeout: 60_000 });
    if (result.error) throw new Error(`${tool} could not run: ${result.error.message}`);
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  let port = 0;
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    port = await startServer({ run, data, dir });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | null = null;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async createDatabase() {
      databases += 1;
      const name = `tether_${process.pid}_${databases}`;
      // Over the unix socket in the temp dir: no TCP, no password (trust).
      execFileSync(join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'postgres', name], { stdio: 'pipe', timeout: 30_000 });
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop() {
      stopped ??= (async () => {
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })();
      return stopped;
    },
  };
}
