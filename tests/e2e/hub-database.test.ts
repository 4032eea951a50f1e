// `tether hub --database postgres://…`: the store is that database. Bad input is one line and a
// non-zero exit with the database untouched (a URL that is not one, a server nobody answers on, a
// schema a newer hub wrote); two hubs with separate homes share tokens, sessions and the secrets
// a browser depends on (web-session signing, VAPID) through it; `tether token --database` writes
// where the hubs read.
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/balancer.ts';
import { makeTempHome, startHubProcess } from '../harness/hub.ts';
import { TETHER_MAIN } from '../harness/desk.ts';
import { startPostgres, type PostgresHandle } from '../harness/postgres.ts';
import { plantNewerSchema, publicTables } from '../harness/postgres-client.ts';
import { knownVersion } from '../../hub/src/store/schema/migrations.ts';
import { useFileCleanups } from '../harness/cleanups.ts';

let cluster: PostgresHandle;
const defer = useFileCleanups();
beforeAll(async () => {
  cluster = await startPostgres();
  defer(() => cluster.stop());
});

function home(): string {
  const dir = makeTempHome('tether-hub-db-');
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `tether <args>` to completion (bounded). */
function tether(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [TETHER_MAIN, ...args], { env: { ...process.env, TETHER_HOME: home(), NO_COLOR: '1', ...env }, encoding: 'utf8', timeout: 45_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function oneLineFailure(result: { code: number | null; stderr: string }, pattern: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
}

describe('tether hub --database: bad input', () => {
  it('a URL that is not a PostgreSQL URL', () => {
    oneLineFailure(tether(['hub', '--port', '0', '--database', 'mysql://root@127.0.0.1/tether']), /^tether: --database must be a postgres:\/\/ URL$/);
  });

  it('a malformed postgres URL, with its password kept out of the message', () => {
    const result = tether(['hub', '--port', '0', '--database', 'postgres://me:s3cret@127.0.0.1:notaport/tether']);
    oneLineFailure(result, /^tether: cannot start the hub: invalid database URL/);
    expect(result.stderr).not.toContain('s3cret');
  });

  it('a server nobody answers on (also through TETHER_DATABASE_URL)', async () => {
    const port = await freePort();
    const result = tether(['hub', '--port', '0'], { TETHER_DATABASE_URL: `postgres://me:s3cret@127.0.0.1:${port}/tether` });
    oneLineFailure(result, new RegExp(`^tether: cannot start the hub: cannot reach the database at postgres://me:\\*\\*\\*@127\\.0\\.0\\.1:${port}/tether: .*ECONNREFUSED`));
    expect(result.stderr).not.toContain('s3cret');
  });

  it('a database whose schema a newer hub wrote: refused, nothing migrated', async () => {
    const url = await cluster.createDatabase();
    await plantNewerSchema(url, { version: 42, name: 'from a newer tether' });
    const before = await publicTables(url);
    oneLineFailure(tether(['hub', '--port', '0', '--database', url]), new RegExp(`^tether: cannot start the hub: the database schema is version 42, newer than this hub knows \\(${knownVersion('postgres')}\\)`));
    expect(await publicTables(url)).toEqual(before);
  });
});

describe('tether hub --database: two hubs, one database', () => {
  it('share tokens made by `tether token --database`, sessions, web sessions and the VAPID key; nothing in TETHER_HOME', async () => {
    const url = await cluster.createDatabase();
    const homes = [home(), home()];
    const hubs = [];
    for (const dir of homes) {
      const hub = await startHubProcess({ home: dir, args: ['--database', url] });
      defer(() => hub.stop());
      hubs.push(hub);
    }
    const [a, b] = hubs as [(typeof hubs)[0], (typeof hubs)[0]];
    // The start names its database (a password would be shown as ***; this URL has none).
    expect(a.output()).toContain(`database: ${url}`);
    // The first hub made the first token in the database; the second found it and made none.
    expect(a.token).toMatch(/^tth_/);
    expect(b.token).toBeNull();
    const made = tether(['token', 'create', '--namespace', 'team', '--label', 'ci', '--json', '--database', url]);
    expect(made.code, made.stderr).toBe(0);
    const teamToken = (JSON.parse(made.stdout) as { token: string }).token;
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    for (const hub of [a, b]) expect((await fetch(`${hub.url}/api/sessions`, { headers: bearer(teamToken) })).status).toBe(200);

    // A web session signed by hub A is good on hub B (one signing secret, from the database).
    const login = await fetch(`${a.url}/api/auth/login`, { method: 'POST', body: JSON.stringify({ token: teamToken }), headers: { 'content-type': 'application/json' } });
    const { session } = (await login.json()) as { session: string };
    expect((await fetch(`${b.url}/api/sessions`, { headers: bearer(session) })).status).toBe(200);
    // One VAPID key pair: a browser subscribed through one hub is pushed by any.
    const keys = await Promise.all([a, b].map(async (hub) => ((await (await fetch(`${hub.url}/api/push/vapid`, { headers: bearer(teamToken) })).json()) as { publicKey: string }).publicKey));
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(keys[1]).toBe(keys[0]);

    // Revoked through the CLI: refused by both hubs.
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    expect(tether(['token', 'revoke', id, '--database', url]).code).toBe(0);
    for (const hub of [a, b]) expect((await fetch(`${hub.url}/api/sessions`, { headers: bearer(teamToken) })).status).toBe(401);

    // The store and the secrets are the database's: no SQLite file, no secret files in either home.
    for (const dir of homes) expect(readdirSync(dir).filter((f) => /sqlite|secret|vapid/.test(f))).toEqual([]);
    expect(await publicTables(url)).toEqual(expect.arrayContaining(['sessions', 'messages', 'requests', 'tokens', 'tether_schema_migrations', 'tether_cluster_secrets']));
  }, 120_000);
});
