// cluster.ts (harness): several `tether hub` processes on one throwaway PostgreSQL database behind
// a real nginx, as docs/multi-hub.md describes. Hub A is the balancer's primary and hub B its
// backup, so a test knows where a client that comes through the balancer lands (A while it lives,
// B after A died); clients that must be on a given hub connect to it directly.
//
//   test ─► startCluster ─► postgres ─► hub A, hub B (tether hub --database …) ─► nginx [A, B backup]
//
// Invariant: everything is stopped by the test's cleanup scope, the balancer first, then the hubs;
// the file's PostgreSQL server stops after its last test.
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import type { Defer } from './cleanups.ts';
import { startBalancer, type BalancerHandle } from './balancer.ts';
import { makeTempHome, startHubProcess, type HubProcessHandle } from './hub.ts';
import { startPostgres, type PostgresHandle } from './postgres.ts';
import { startFakeAnthropic, type FakeAnthropicOptions } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from './claude.ts';
import { startRunner } from './runner.ts';
import { DESK_READY, MANUAL_MODE } from './world.ts';

export type ClusterHub = HubProcessHandle & { token: string };

export type Cluster = {
  /** The cluster's own database (a fresh one on the test file's PostgreSQL server). */
  databaseUrl: string;
  a: ClusterHub;
  b: ClusterHub;
  balancer: BalancerHandle;
  /** The balancer's URL and a token of the default namespace: what every client is given. */
  front: { url: string; token: string };
};

/** One PostgreSQL server per test file, started on first use; each cluster gets its own database. */
let server: Promise<PostgresHandle> | null = null;
afterAll(async () => {
  const started = server;
  server = null;
  if (started) await (await started).stop();
});

const CLUSTER_FORM_TIMEOUT_MS = 15_000;

/** Resolves once the hub at `url` hears `count` hubs (itself included), from its /healthz. */
async function heardHubs(url: string, count: number): Promise<void> {
  const deadline = Date.now() + CLUSTER_FORM_TIMEOUT_MS;
  let last: unknown = null;
  while (Date.now() < deadline) {
    last = await (await fetch(`${url}/healthz`)).json();
    if (((last as { cluster?: { hubs?: number } }).cluster?.hubs ?? 0) >= count) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`hub ${url} never heard ${count} hubs: /healthz says ${JSON.stringify(last)}`);
}

export async function startCluster(defer: Defer, options: { hubArgs?: string[] } = {}): Promise<Cluster> {
  server ??= startPostgres();
  const databaseUrl = await (await server).createDatabase();
  // One home per hub, as on separate machines: everything they share is in the database.
  const start = async (name: string): Promise<HubProcessHandle> => {
    const home = makeTempHome(`tether-hub-cluster-${name}-`);
    defer(() => rmSync(home, { recursive: true, force: true }));
    const hub = await startHubProcess({ home, args: ['--database', databaseUrl, '--trust-proxy', ...(options.hubArgs ?? [])] });
    defer(() => hub.stop());
    return hub;
  };
  // One after the other: the first makes the cluster's secrets and first token, the second finds them.
  const a = await start('a');
  const b = await start('b');
  // Each hub finds the other through the database's heartbeats, a moment after it started; until
  // then a daemon or runner on the other hub is not found from it ("machine is offline").
  await Promise.all([a, b].map((hub) => heardHubs(hub.url, 2)));
  const token = a.token ?? b.token;
  if (!token) throw new Error(`no hub printed a first token:\n${a.output()}\n${b.output()}`);
  const balancer = await startBalancer({ upstreams: [{ url: a.url }, { url: b.url, backup: true }] });
  defer(() => balancer.stop());
  return { databaseUrl, a: Object.assign(a, { token }), b: Object.assign(b, { token }), balancer, front: { url: balancer.url, token } };
}

/** A cluster with a claude runner on it (in manual mode, answered by a fake API scripted by
 *  `fakeOptions`), come through the balancer: hub A is its primary, so the runner lands there. */
export async function startClusterWithRunner(defer: Defer, fakeOptions: FakeAnthropicOptions) {
  const fake = await startFakeAnthropic(fakeOptions);
  defer(() => fake.stop());
  const cluster = await startCluster(defer);
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  defer(() => sandbox.stop());
  const runner = startRunner({ hub: cluster.front, sandbox, args: MANUAL_MODE });
  defer(() => runner.stop());
  await runner.waitForScreen(DESK_READY);
  return { fake, cluster, sandbox, runner };
}
