// runner-soak.ts: does a busy `tether claude` runner grow? (run by `bun run bench soak` after the hub
// soak, alone with TETHER_SOAK_RUNNER=1; or `bun bench/runner-soak.ts`.) A real runner (pinned
// claude, fake Anthropic API) is driven through turns whose replies stream slowly (60 deltas, 50 ms
// apart), with a phone socket subscribed to its terminal and one `tether attach` viewer, for
// TETHER_SOAK_RUNNER_MINUTES (else TETHER_SOAK_MINUTES, else 60). RSS is sampled every TETHER_SOAK_SAMPLE_S (15);
// soak_runner_rss_mb_per_hour / soak_viewer_rss_mb_per_hour: least-squares slopes after the first
// sixth (the warm-up); soak_runner_rss_troughs_mb_per_hour / _viewer_: the slope through the bottoms
// of the falls after the warm-up (a full collection's release, more than 2 MB), the memory still held
// after the collections (load/trend.ts: RSS is a sawtooth with teeth of 7–17 minutes, and a line
// through it swings with the cut); the goal is read on the troughs. With TETHER_SOAK_HEAP_S=N both processes also write heap samples every N s
// (TETHER_BENCH_HEAP, cli/src/memory/heap-probe.ts; off by default: each sample's full collection
// lowers the RSS slope it measures, +5.4 against +9.9 MB/h): soak_runner_heap_mb_per_hour is the
// slope of the JS heap after a full collection, so RSS growth with a flat heap is native/allocator
// memory, and the object types whose count grows are named. TETHER_SOAK_RUNNER_ENV (JSON) adds env to
// the runner and viewer (to compare allocator and GC settings); TETHER_SOAK_HEAP_OUT keeps the samples.
import { lastUserText, startFakeAnthropic, streamedText } from '../tests/fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox, READY_PATTERN } from '../tests/harness/claude.ts';
import { startDesk } from '../tests/harness/daemon.ts';
import { startHub } from '../tests/harness/hub.ts';
import { startRunner, watchSession } from '../tests/harness/runner.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile, round } from './load/fleet.ts';
import { cpuSeconds, loadAverage, rssMb } from './load/proc.ts';
import { slope, troughs } from './load/trend.ts';

/** One slowly streamed reply: 60 lines of ~80 chars, one delta every 50 ms (3 s a turn). */
function longReply(turn: number) {
  const chunks = Array.from({ length: 60 }, (_, i) => `turn ${turn} line ${i}: ${'lorem ipsum dolor sit amet '.repeat(2)}\n`);
  return streamedText(chunks, { gapMs: 50 });
}

export async function runRunnerSoak(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  // An hour: claude compacts its context at ~850 turns (~47 min), and the runner's full collections
  // come 7–17 minutes apart, so a shorter run has too few troughs to draw a slope through.
  const minutes = Number(process.env.TETHER_SOAK_RUNNER_MINUTES ?? process.env.TETHER_SOAK_MINUTES ?? 60);
  const sampleMs = Number(process.env.TETHER_SOAK_SAMPLE_S ?? 15) * 1000;
  // Enough scripted replies for the whole run even when claude sends a request again (~3 s a turn).
  const turns = Math.max(2000, Math.ceil(minutes * 40));
  // Each reply is for the turn its prompt names, not the next in line: under load claude may send a
  // request again, and a reply by position then answered turn N with turn N+2's text (the wait for
  // "turn N line 59" ran out at 49 min of a 100-min soak).
  const replyToPrompt = (request: Parameters<typeof lastUserText>[0]) => longReply(Number(/soak turn (\d+)/.exec(lastUserText(request))?.[1] ?? -1));
  const fake = await startFakeAnthropic({ script: Array.from({ length: turns * 2 }, () => replyToPrompt) });
  const hub = await startHub();
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  const heapDir = mkdtempSync(join(tmpdir(), 'tether-soak-heap-'));
  const heapFile = process.env.TETHER_SOAK_HEAP_OUT ?? join(heapDir, 'heap.jsonl');
  // No probe unless asked: its full collection each sample changes what RSS does.
  const heapSeconds = process.env.TETHER_SOAK_HEAP_S ?? '0';
  const probeEnv: Record<string, string> = {
    ...(heapSeconds === '0' ? {} : { TETHER_BENCH_HEAP: heapFile, TETHER_BENCH_HEAP_S: heapSeconds }),
    ...(JSON.parse(process.env.TETHER_SOAK_RUNNER_ENV ?? '{}') as Record<string, string>),
  };
  const runner = startRunner({ hub, sandbox, args: ['--permission-mode', 'default'], env: probeEnv });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  const samples: Array<[number, number]> = [];
  const viewerSamples: Array<[number, number]> = [];
  let viewer: ReturnType<typeof startDesk> | null = null;
  let done = 0;
  let startedAt = Date.now();
  let runnerCpu = { start: 0, end: 0 };
  const loads: number[] = [];
  try {
    await runner.waitForScreen(/❯/);
    await phone.emit('terminal:subscribe', { sessionId: runner.sessionId });
    // One `tether attach` viewer at a second terminal, as a user watching from another window.
    viewer = startDesk({
      args: ['attach', runner.sessionId],
      cwd: sandbox.cwd,
      env: { ...sandbox.env, ...probeEnv, TETHER_HOME: runner.home, TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_CLAUDE_BIN: claudeBin() },
    });
    const started = performance.now();
    startedAt = Date.now();
    runnerCpu = { start: cpuSeconds(runner.pid), end: 0 };
    const minute = () => (performance.now() - started) / 60_000;
    const sampler = setInterval(() => {
      const at = minute();
      const runnerMb = rssMb(runner.pid);
      const viewerMb = viewer ? rssMb(viewer.pid) : null;
      samples.push([at, runnerMb]);
      loads.push(loadAverage());
      if (viewerMb !== null) viewerSamples.push([at, viewerMb]);
      console.error(`runner-soak: ${at.toFixed(2)} min, ${done} turns, runner ${runnerMb.toFixed(1)} MB, viewer ${viewerMb === null ? '-' : viewerMb.toFixed(1)} MB`);
    }, sampleMs);
    try {
      while (minute() < minutes) {
        await phone.send(`soak turn ${done}`);
        await runner.waitForScreen(new RegExp(`turn ${done} line 59`), { timeoutMs: 60_000 });
        await runner.waitForScreen(READY_PATTERN, { timeoutMs: 60_000 });
        done += 1;
      }
    } finally {
      clearInterval(sampler);
      runnerCpu.end = cpuSeconds(runner.pid);
    }
  } finally {
    phone.stop();
    await viewer?.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
    await hub.stop();
  }
  const warm = Math.max(minutes / 6, sampleMs / 60_000);
  const heap = heapSummary({ file: heapFile, warmMinutes: warm, startedAt });
  if (!process.env.TETHER_SOAK_HEAP_OUT) rmSync(heapDir, { recursive: true, force: true });
  const runnerTrend = trend({ samples, warm });
  const viewerTrend = trend({ samples: viewerSamples, warm });
  const common = { minutes, warmup_minutes: round(warm, 1) };
  return [
    ...heap,
    { name: 'soak_viewer_rss_mb_per_hour', value: viewerTrend.line, unit: 'MB/h', ...common, rss_end_mb: viewerTrend.end },
    { name: 'soak_viewer_rss_troughs_mb_per_hour', value: viewerTrend.troughs, unit: 'MB/h', ...common, troughs_mb: viewerTrend.troughValues },
    {
      name: 'soak_runner_rss_mb_per_hour',
      value: runnerTrend.line,
      unit: 'MB/h',
      ...common,
      turns: done,
      // What the runner's own work costs, to weigh a setting that trades memory for CPU.
      cpu_ms_per_turn: done > 0 ? Math.round(((runnerCpu.end - runnerCpu.start) * 1000) / done) : Number.NaN,
      load_avg_1m_median: percentile(loads, 50),
      rss_after_warmup_mb: runnerTrend.start,
      rss_end_mb: runnerTrend.end,
      rss_range_mb: runnerTrend.range,
      samples: samples.length,
      rss_mb_series: samples.map(([, mb]) => round(mb, 1)),
    },
    // NaN with fewer than two falls after the warm-up: no full collection released anything to read.
    { name: 'soak_runner_rss_troughs_mb_per_hour', value: runnerTrend.troughs, unit: 'MB/h', ...common, goal: 2, troughs_mb: runnerTrend.troughValues, troughs_at_min: runnerTrend.troughMinutes },
  ];
}

/** A full collection's release, in MB: the runner's teeth fall 4–6 MB; its RSS wiggles by < 2 MB between. */
const MIN_FALL_MB = 2;

/** After the warm-up: the least-squares line and the slope through the troughs (MB/h). */
function trend(options: { samples: Array<[number, number]>; warm: number }) {
  const after = options.samples.filter(([m]) => m >= options.warm);
  const perHour = (points: Array<[number, number]>) => round(slope(points) * 60);
  const bottoms = troughs(after, { minDrop: MIN_FALL_MB });
  const values = after.map(([, mb]) => mb);
  const oneDecimal = (n: number | undefined) => round(n ?? Number.NaN, 1);
  return {
    line: perHour(after),
    troughs: perHour(bottoms),
    troughValues: bottoms.map(([, mb]) => oneDecimal(mb)),
    troughMinutes: bottoms.map(([m]) => oneDecimal(m)),
    start: oneDecimal(values[0]),
    end: oneDecimal(values.at(-1)),
    range: [oneDecimal(Math.min(...values)), oneDecimal(Math.max(...values))],
  };
}

type HeapLine = { label: string; t: number; rss: number; heapSizeAfterGc: number; objectsAfterGc: number; mimallocCommit: number; types: Record<string, number> };

/** Per process: the JS heap's slope after full collections (MB/h), and the object types whose count
 *  grew most between the first sample after warm-up and the last. */
function heapSummary(options: { file: string; warmMinutes: number; startedAt: number }) {
  let lines: HeapLine[] = [];
  try {
    lines = readFileSync(options.file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as HeapLine);
  } catch {
    return [];
  }
  const out: Array<{ name: string; value: number; unit: string } & Record<string, unknown>> = [];
  for (const label of ['runner', 'viewer']) {
    const mine = lines.filter((l) => l.label === label);
    if (mine.length < 2) continue;
    const at = (l: HeapLine) => (l.t - options.startedAt) / 60_000;
    const after = mine.filter((l) => at(l) >= options.warmMinutes);
    const first = after[0] ?? mine[0]!;
    const last = mine.at(-1)!;
    const grew = Object.entries(last.types)
      .map(([type, n]) => [type, n - (first.types[type] ?? 0)] as const)
      .filter(([, d]) => d !== 0)
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .slice(0, 8);
    const mb = (f: (l: HeapLine) => number) => Math.round(slope(after.map((l) => [at(l), f(l) / 2 ** 20])) * 60 * 100) / 100;
    out.push({
      name: `soak_${label}_heap_mb_per_hour`,
      value: mb((l) => l.heapSizeAfterGc),
      unit: 'MB/h',
      heap_after_gc_mb: [first, last].map((l) => Math.round((l.heapSizeAfterGc / 2 ** 20) * 10) / 10),
      objects: [first.objectsAfterGc, last.objectsAfterGc],
      mimalloc_commit_mb_per_hour: mb((l) => l.mimallocCommit),
      rss_at_probe_mb_per_hour: mb((l) => l.rss),
      grew: Object.fromEntries(grew),
      samples: mine.length,
    });
  }
  return out;
}

if (import.meta.main) console.log(JSON.stringify(await runRunnerSoak(), null, 1));
