// postgres.ts (harness): a throwaway PostgreSQL cluster (initdb + pg_ctl) in a temp dir on a free
// 127.0.0.1 port, trust auth, for tests of hubs that share a database. As root (CI), the server
// runs as the `postgres` system user, since PostgreSQL refuses to run as root.
//
// Invariant: stop() stops the server (immediate mode) and removes its directory. One server can
// hold many tests' databases (createDatabase), which skips initdb (seconds on a loaded box).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './balancer.ts';

export type PostgresHandle = {
  /** The server's default database. */
  url: string;
  port: number;
  /** A new empty database on this server (cheaper than a new server: no initdb). */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
};

function binDir(): string {
  if (process.env.TETHER_PG_BIN) return process.env.TETHER_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error('PostgreSQL is missing (no initdb under /usr/lib/postgresql): install the Debian package postgresql (apt-get install -y postgresql)');
}

export async function startPostgres(): Promise<PostgresHandle> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'tether-pg-'));
  const data = join(dir, 'data');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let uid = -1;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: string[]) => {
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const result = spawnSync(asRoot ? 'runuser' : join(bin, tool), argv, { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
  };
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`, 'start']);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | null = null;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase() {
      const name = `tether_${randomUUID().replace(/-/g, '')}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
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
