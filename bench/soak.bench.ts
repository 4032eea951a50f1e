// soak.bench.ts: does a hub leak over time? (issue 13 part 5; only with `bun run bench soak`.)
// 50 sessions stream 1 KB/s and chat every 10 s (approvals every 60 s) for TETHER_SOAK_MINUTES
// (default 30) against two hubs on one PostgreSQL behind nginx (each in its own process; one hub
// when TETHER_SOAK_HUBS=1 or PostgreSQL/nginx are missing); RSS and open fds of the hubs and of one
// runner-like process (a load generator holding runner and viewer sockets) are sampled every
// TETHER_SOAK_SAMPLE_S (60). Then a real runner's own soak (runner-soak.ts).
//
//   soak_rss_mb_per_hour, soak_fd_per_hour: least-squares slopes over the samples after the warm-up
//   (the first sixth of the run, at least one sample interval), per hub (the worst is the value);
//   soak_generator_*: the same for the generator process (not a real runner: runner-soak.ts is).
//
// The hub's terminal logs fill by design (1 KB/s per session up to the per-terminal cap, 4 MiB by
// default: 70 minutes). So that this growth does not hide a leak, the soak's hub keeps 256 KiB per
// terminal (full after ~4 minutes, inside the warm-up); TETHER_SOAK_LOG_BYTES changes it.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX_BIN, startBalancer } from '../tests/harness/balancer.ts';
import { startPostgres } from '../tests/harness/postgres.ts';
import { ISSUE_RATES, percentile, round, startHubChild, startLoad, type HubChild } from './load/fleet.ts';
import { loadAverage, openFds, rssMb } from './load/proc.ts';
import { slope } from './load/trend.ts';

type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const SESSIONS = Number(process.env.TETHER_SOAK_SESSIONS ?? 50);
const PER_NAMESPACE = 10;
const TERMINAL_LOG_BYTES = Number(process.env.TETHER_SOAK_LOG_BYTES ?? 256 * 1024);

type Sample = { minute: number; hubRssMb: number[]; hubFds: number[]; runnerRssMb: number; runnerFds: number; load: number };

export async function run(): Promise<Measurement[]> {
  // A real `tether claude` runner under slowly streamed turns (runner-soak.ts); TETHER_SOAK_RUNNER=1
  // runs only it, =0 skips it.
  const runnerSoak = async () => (await import('./runner-soak.ts')).runRunnerSoak();
  if (process.env.TETHER_SOAK_RUNNER === '1') return runnerSoak();
  const hubs = await runHubSoak();
  return process.env.TETHER_SOAK_RUNNER === '0' ? hubs : [...hubs, ...(await runnerSoak())];
}

async function runHubSoak(): Promise<Measurement[]> {
  const minutes = Number(process.env.TETHER_SOAK_MINUTES ?? 30);
  const sampleMs = Number(process.env.TETHER_SOAK_SAMPLE_S ?? 60) * 1000;
  const warmupMinutes = Math.max(minutes / 6, sampleMs / 60_000);
  const stops: Array<() => unknown> = [];
  const namespaces = Math.ceil(SESSIONS / PER_NAMESPACE);
  const clusterable = existsSync(NGINX_BIN) && existsSync('/usr/lib/postgresql');
  const hubCount = Number(process.env.TETHER_SOAK_HUBS ?? (clusterable ? 2 : 1));
  let hubs: HubChild[];
  let url: string;
  try {
    if (hubCount === 1) {
      hubs = [await startHubChild({ namespaces, terminalLogBytes: TERMINAL_LOG_BYTES })];
      url = hubs[0]!.url;
    } else {
      const pg = await startPostgres();
      stops.push(() => pg.stop());
      const home = mkdtempSync(join(tmpdir(), 'tether-soak-cluster-'));
      stops.push(() => rmSync(home, { recursive: true, force: true }));
      hubs = [];
      for (let i = 0; i < hubCount; i++) {
        // The first hub makes the tokens; the cluster shares them.
        const hub = await startHubChild({ namespaces: i === 0 ? namespaces : 0, terminalLogBytes: TERMINAL_LOG_BYTES, databaseUrl: pg.url, home });
        stops.push(() => hub.stop());
        hubs.push(hub);
      }
      const balancer = await startBalancer({ upstreams: hubs.map((h) => ({ url: h.url })) });
      stops.push(() => balancer.stop());
      url = balancer.url;
    }
  } catch (error) {
    for (const stop of stops.reverse()) await stop();
    throw error;
  }
  if (hubCount === 1) stops.push(() => hubs[0]!.stop());
  const tokens = hubs[0]!.tokens;
  try {
    // Two generator processes; the first one's pid is the "runner-like process" sampled.
    const load = await startLoad({ url, tokens, sessions: SESSIONS, perNamespace: PER_NAMESPACE, workers: 2, rampMs: 5000 });
    const runnerPid = load.pids[0]!;
    const samples: Sample[] = [];
    const t0 = performance.now();
    const take = () => {
      const sample = {
        minute: (performance.now() - t0) / 60_000,
        hubRssMb: hubs.map((h) => round(rssMb(h.pid), 1)),
        hubFds: hubs.map((h) => openFds(h.pid)),
        runnerRssMb: rssMb(runnerPid),
        runnerFds: openFds(runnerPid),
        load: loadAverage(),
      };
      samples.push(sample);
      if (process.env.TETHER_SOAK_VERBOSE) console.error(JSON.stringify(sample));
    };
    try {
      if (load.failed > 0) throw new Error(`${load.failed} of ${SESSIONS} sessions failed to start: ${load.firstError}`);
      take();
      const sampler = setInterval(take, sampleMs);
      const window = await load.window(minutes * 60_000, () => {
        clearInterval(sampler);
        take();
      });
      const steady = samples.filter((s) => s.minute >= warmupMinutes);
      const perHour = (pick: (s: Sample) => number) => round(slope(steady.map((s) => [s.minute / 60, pick(s)])), 2);
      const last = samples[samples.length - 1]!;
      // The terminal logs' whole capacity, and when they are full (after that, growth is a leak).
      const logFullMinutes = round(TERMINAL_LOG_BYTES / (ISSUE_RATES.chunkBytes * (1000 / ISSUE_RATES.chunkEveryMs)) / 60, 1);
      const common = { minutes, sessions: SESSIONS, warmup_minutes: round(warmupMinutes, 1), samples: steady.length };
      const perHub = (pick: (s: Sample) => number[]) => hubs.map((_, k) => perHour((s) => pick(s)[k]!));
      const rssSlopes = perHub((s) => s.hubRssMb);
      const fdSlopes = perHub((s) => s.hubFds);
      return [
        {
          name: 'soak_rss_mb_per_hour',
          value: Math.max(...rssSlopes),
          unit: 'MB/h',
          hubs: hubs.length,
          per_hub: rssSlopes,
          rss_mb_first_last: [samples[0]!.hubRssMb, last.hubRssMb],
          terminal_logs_mb_per_hub_max: round((SESSIONS * TERMINAL_LOG_BYTES) / 1e6, 1),
          terminal_logs_full_after_minutes: logFullMinutes,
          rss_mb_series: samples.map((s) => s.hubRssMb),
          ...common,
        },
        { name: 'soak_fd_per_hour', value: Math.max(...fdSlopes), unit: 'fd/h', per_hub: fdSlopes, fds_first_last: [samples[0]!.hubFds, last.hubFds], ...common },
        {
          name: 'soak_generator_rss_mb_per_hour',
          value: perHour((s) => s.runnerRssMb),
          unit: 'MB/h',
          rss_mb_first_last: [round(samples[0]!.runnerRssMb, 1), round(last.runnerRssMb, 1)],
          rss_mb_series: samples.map((s) => round(s.runnerRssMb, 1)),
        },
        { name: 'soak_generator_fd_per_hour', value: perHour((s) => s.runnerFds), unit: 'fd/h', fds_first_last: [samples[0]!.runnerFds, last.runnerFds] },
        {
          name: 'soak_chat_lag_ms_p99',
          value: round(percentile(window.chatLagMs, 99)),
          unit: 'ms',
          samples: window.chatLagMs.length,
          missing: window.chatMissing,
          approvals_missing: window.approvalsMissing,
          disconnects: window.disconnects,
          misplaced_chunks: window.misplaced,
          errors: window.errors,
          load_avg_1m: [samples[0]!.load, last.load],
        },
      ];
    } finally {
      await load.stop();
    }
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
