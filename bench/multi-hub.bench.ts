// multi-hub.bench.ts: several hubs behind one URL (two `tether hub` processes on one throwaway
// PostgreSQL, nginx in front). Skipped with a note when PostgreSQL or nginx is not installed.
//
//   cross_hub_relay_ratio: a viewer on hub B (relayed from hub A, which holds the runner and its
//     byte log) ÷ a viewer on hub A, MB/s received of the same 50 MB flood. Rounds alternate A, B,
//     solo; each round's B ÷ A is one ratio (the two ran back to back, under the same load), and the
//     figure is the median of ROUNDS of them (a best-of-3 of each side on its own swung 0.44–1.78
//     per round on this shared 2-core box). single_hub_viewer_mb_s is a lone hub, for scale.
//   failover_resnapshot_ms: a runner that came through the balancer onto hub A, A SIGKILLed, until a
//     viewer on hub B has a fresh snapshot (the runner reconnected through nginx to B and registered).
//
//   command ─PTY─► runner ─/cli─► hub A ─/web─► viewer (A)
//                                   └─/hub link─► hub B ─/web─► viewer (B)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX_BIN, startBalancer } from '../tests/harness/balancer.ts';
import { startHubProcess, type HubProcessHandle } from '../tests/harness/hub.ts';
import { startPostgres } from '../tests/harness/postgres.ts';
import { startCommandRunner, viewTerminal } from '../tests/harness/terminal.ts';
import { percentile, round } from './load/fleet.ts';

type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const THROUGHPUT_MB = 50;
const ROUNDS = 5;
const FAILOVER_ROUNDS = 3;
const BIG = (mb: number) => `yes 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJ' | head -c ${Math.round(mb * 1e6)}`;

async function cluster(pgUrl: string, stops: Array<() => unknown>) {
  // One home per hub, as on separate machines: what they share is in the database.
  const start = async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-bench-cluster-'));
    stops.push(() => rmSync(home, { recursive: true, force: true }));
    const hub = await startHubProcess({ home, args: ['--database', pgUrl] });
    stops.push(() => hub.stop());
    return hub;
  };
  const a = await start();
  const b = await start();
  return { a, b, token: (a.token ?? b.token)! };
}

async function relayRatio(hubs: { a: HubProcessHandle; b: HubProcessHandle; token: string }, stops: Array<() => unknown>): Promise<Measurement[]> {
  const flood = `stty -echo; while read -r go; do ${BIG(THROUGHPUT_MB)}; done`;
  const runner = startCommandRunner({ hub: { url: hubs.a.url, token: hubs.token }, command: flood });
  stops.push(() => runner.stop());
  // For scale: the same flood through a lone hub without a database (no adapter, no link).
  const soloHome = mkdtempSync(join(tmpdir(), 'tether-bench-solo-'));
  stops.push(() => rmSync(soloHome, { recursive: true, force: true }));
  const solo = await startHubProcess({ home: soloHome });
  stops.push(() => solo.stop());
  const soloRunner = startCommandRunner({ hub: { url: solo.url, token: solo.token! }, command: flood });
  stops.push(() => soloRunner.stop());
  const sides = {
    a: { url: hubs.a.url, token: hubs.token, sessionId: runner.sessionId },
    b: { url: hubs.b.url, token: hubs.token, sessionId: runner.sessionId },
    solo: { url: solo.url, token: solo.token!, sessionId: soloRunner.sessionId },
  };
  // The rate is bytes the viewer received (a resync's snapshot replaces bytes it never got: the
  // runner outran the hub and dropped bytes; `resyncs` says how often per round).
  type Side = keyof typeof sides;
  const rounds: Record<Side, Array<{ rate: number; resyncs: number }>> = { a: [], b: [], solo: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of ['a', 'b', 'solo'] as const) {
      const { url, token, sessionId } = sides[side];
      const v = await viewTerminal({ url, token, sessionId, render: false });
      try {
        await v.waitFor(() => v.snapshots() > 0, 'first snapshot', 30_000);
        const start = v.offset();
        const received = v.bytesReceived();
        const snaps = v.snapshots();
        const t0 = performance.now();
        await v.emit('terminal:input', { sessionId, data: 'go\r' });
        await v.waitFor(() => v.offset() - start >= THROUGHPUT_MB * 1e6, 'all bytes', 300_000);
        rounds[side].push({ rate: (v.bytesReceived() - received) / 1e6 / ((performance.now() - t0) / 1000), resyncs: v.snapshots() - snaps });
      } finally {
        v.stop();
      }
    }
  }
  const median = (xs: number[]) => percentile(xs, 50);
  const rate = (side: Side) => median(rounds[side].map((r) => r.rate));
  const pairRatios = rounds.a.map((a, i) => rounds.b[i]!.rate / a.rate);
  const describe = (side: Side) => ({ samples: rounds[side].map((r) => round(r.rate)), resyncs: rounds[side].map((r) => r.resyncs) });
  return [
    { name: 'cross_hub_viewer_a_mb_s', value: round(rate('a')), unit: 'MB/s (median)', ...describe('a') },
    { name: 'cross_hub_viewer_b_mb_s', value: round(rate('b')), unit: 'MB/s (median)', ...describe('b') },
    { name: 'single_hub_viewer_mb_s', value: round(rate('solo')), unit: 'MB/s (median)', ...describe('solo'), note: 'a lone hub without a database, for scale' },
    { name: 'cross_hub_relay_ratio', value: round(median(pairRatios), 3), unit: 'ratio (median of per-round B ÷ A)', samples: pairRatios.map((r) => round(r, 3)), target: '>= 0.7' },
  ];
}

async function failover(pgUrl: string): Promise<number> {
  const stops: Array<() => unknown> = [];
  try {
    const hubs = await cluster(pgUrl, stops);
    const balancer = await startBalancer({ upstreams: [{ url: hubs.a.url }, { url: hubs.b.url, backup: true }] });
    stops.push(() => balancer.stop());
    const runner = startCommandRunner({ hub: { url: balancer.url, token: hubs.token }, command: 'while read -r line; do echo "got $line"; done' });
    stops.push(() => runner.stop());
    const viewer = await viewTerminal({ url: hubs.b.url, token: hubs.token, sessionId: runner.sessionId, render: false });
    stops.push(() => viewer.stop());
    await viewer.waitFor(() => viewer.snapshots() > 0, 'first snapshot (relayed from A)', 30_000);
    const before = viewer.snapshots();
    const t0 = performance.now();
    await hubs.a.kill('SIGKILL');
    await viewer.waitFor(() => viewer.snapshots() > before, 'a snapshot from B', 30_000);
    return performance.now() - t0;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}

export async function run(): Promise<Measurement[]> {
  if (!existsSync(NGINX_BIN)) return [{ name: 'multi_hub_skipped', value: 0, unit: 'note', reason: `no nginx at ${NGINX_BIN} (apt-get install nginx-light)` }];
  let pg: Awaited<ReturnType<typeof startPostgres>>;
  try {
    pg = await startPostgres();
  } catch (error) {
    return [{ name: 'multi_hub_skipped', value: 0, unit: 'note', reason: error instanceof Error ? error.message : String(error) }];
  }
  const out: Measurement[] = [];
  const stops: Array<() => unknown> = [];
  try {
    const hubs = await cluster(await pg.createDatabase(), stops);
    out.push(...(await relayRatio(hubs, stops)));
    for (const stop of stops.reverse()) await stop();
    stops.length = 0;
    const failovers: number[] = [];
    for (let i = 0; i < FAILOVER_ROUNDS; i++) failovers.push(await failover(await pg.createDatabase()));
    out.push({ name: 'failover_resnapshot_ms', value: round(percentile(failovers, 50), 0), unit: 'ms (median)', samples: failovers.map((x) => round(x, 0)), target: '<= 5000' });
    return out;
  } finally {
    for (const stop of stops.reverse()) await stop();
    await pg.stop();
  }
}
