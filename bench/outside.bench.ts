// outside.bench.ts: conversations found on a machine (issue 40), what listing and finding them costs.
//
//   outside_list_5000_ms: a machine with 5,000 found conversations in the hub's index (SQLite, the
//     default store); the median answer time of GET /api/machines/:id/outside (the first page of 50,
//     newest first, counted), over ROUNDS requests after a warm-up. Target ≤ 200 ms.
//   outside_search_5000_ms: the same with a search (`q`, over title and folder).
//   daemon_idle_cpu_ms: a real `tether daemon --outside` on a home holding DAEMON_FILES claude
//     transcripts and Codex rollouts, after its first report and SETTLE_MS: CPU time over IDLE_MS
//     idle seconds by /proc/<pid>/stat utime + stime (10 ms ticks). Target ≤ 50 ms per 60 s.
//   daemon_idle_sched_ms: the same window by every thread's schedstat (exact ns).
//   daemon_idle_wakeups: times the daemon's threads were put on a CPU in the window.
//   daemon_idle_processes: processes the daemon started while idle (children seen, sampled every
//     100 ms; reaped_child_faults > 0 would show one too short-lived to be seen). Target 0.
//   daemon_idle_steady_*: the same over the next IDLE_MS (the runtime's start-up GC ticks are over).
//   Medians of DAEMON_ROUNDS windows. TETHER_BENCH_BASELINE=<another checkout's cli/src/main.ts>
//   alternates its daemon's windows with these (baseline_* lines): before/after on one loaded box.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutsideEntry } from '@tether/shared';
import { startHub } from '../tests/harness/hub.ts';
import { TETHER_MAIN } from '../tests/harness/desk.ts';
import { codexBin } from '../tests/harness/codex.ts';
import { childrenOf, cpuTicks } from './idle.bench.ts';

const ENTRIES = 5_000;
const ROUNDS = 40;
const WARMUP = 5;
const IDLE_MS = 60_000;
const DAEMON_FILES = 500;
/** Idle windows per daemon (alternating with a baseline's when one is given); each line is the median. */
const DAEMON_ROUNDS = 3;
/** After the first report: start-up's last timers (the debounce, the live window) have run. */
const SETTLE_MS = 10_000;
const MACHINE = '0b5e55ed-0000-4000-8000-00000000b0b0';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const uuid = (i: number) => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

async function timeRequests(url: string, token: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total: number };
    if (res.status !== 200 || typeof body.total !== 'number') throw new Error(`list answered ${res.status}`);
    if (i >= WARMUP) samples.push(performance.now() - started);
  }
  return median(samples);
}

async function listBench() {
  const hub = await startHub();
  try {
    await hub.store.upsertMachine({ namespace: hub.namespace, machine: { id: MACHINE, name: 'box', os: 'linux', user: 'me', home: '/home/me', outside: true }, now: Date.now() });
    const entries: OutsideEntry[] = Array.from({ length: ENTRIES }, (_, i) => ({
      agent: (['claude', 'codex', 'gemini'] as const)[i % 3]!,
      agentSessionId: uuid(i + 1),
      folder: `/home/me/projects/app-${i % 97}`,
      title: `conversation ${i}: ${'fix the flaky build and then '.repeat(6)}`.slice(0, 200),
      lastActivity: 1_790_000_000_000 + i * 1000,
      sizeBytes: 10_000 + i,
      live: false,
    }));
    for (let i = 0; i < entries.length; i += 500) {
      await hub.store.recordOutside({ namespace: hub.namespace, machineId: MACHINE, entries: entries.slice(i, i + 500), removed: [], sweepBefore: null, now: Date.now() });
    }
    const base = `${hub.url}/api/machines/${MACHINE}/outside`;
    return [
      { name: 'outside_list_5000_ms', value: Math.round((await timeRequests(`${base}?limit=50`, hub.token)) * 100) / 100, unit: 'ms', target: 200 },
      { name: 'outside_search_5000_ms', value: Math.round((await timeRequests(`${base}?limit=50&q=app-42`, hub.token)) * 100) / 100, unit: 'ms', target: 200 },
    ];
  } finally {
    await hub.stop();
  }
}

/** A home with claude transcripts and Codex rollouts, aged past the live window. */
function foundHome(root: string) {
  const old = (Date.now() - 3_600_000) / 1000;
  for (let i = 0; i < DAEMON_FILES; i++) {
    const id = uuid(i + 1);
    if (i % 2 === 0) {
      const dir = join(root, '.claude', 'projects', `-home-me-app-${i % 25}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${id}.jsonl`), `${JSON.stringify({ type: 'user', cwd: `/home/me/app-${i % 25}`, sessionId: id, message: { role: 'user', content: `task ${i}` } })}\n`);
      utimesSync(join(dir, `${id}.jsonl`), old, old);
    } else {
      const dir = join(root, '.codex', 'sessions', '2026', '12', String(1 + (i % 5)).padStart(2, '0'));
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `rollout-2026-12-0${1 + (i % 5)}T00-00-00-${id}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ type: 'session_meta', payload: { id, cwd: `/home/me/app-${i % 25}` } })}\n`);
      utimesSync(file, old, old);
    }
  }
}

/** What one idle window of a daemon cost. */
type IdleWindow = { ticksMs: number; schedMs: number; wakeups: number; processes: number; childFaults: number };

/** Minor faults of the children the process has waited for (/proc/<pid>/stat cminflt): any process
 *  it started and reaped meanwhile adds hundreds (an exec faults its pages in), so a child too
 *  short-lived for the sampling below still shows. */
function childFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[8]);
}

/** Every thread's ns on a CPU and times it was put on one (/proc/<pid>/task/<tid>/schedstat: the
 *  first and third fields): a wake-up is a time on a CPU. */
function threadRuns(pid: number): Map<string, { ns: number; runs: number }> {
  const out = new Map<string, { ns: number; runs: number }>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [ns, , runs] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(task, { ns: ns!, runs: runs! });
    } catch {
      // thread gone
    }
  }
  return out;
}

/** One IDLE_MS window of the process `pid`. */
async function measureIdle(pid: number): Promise<IdleWindow> {
  const before = { runs: threadRuns(pid), ticks: cpuTicks(pid), faults: childFaults(pid) };
  const seen = new Set<number>();
  const end = Date.now() + IDLE_MS;
  while (Date.now() < end) {
    for (const started of childrenOf(pid)) seen.add(started);
    await Bun.sleep(100);
  }
  let ns = 0;
  let runs = 0;
  for (const [tid, now] of threadRuns(pid)) {
    ns += now.ns - (before.runs.get(tid)?.ns ?? 0);
    runs += now.runs - (before.runs.get(tid)?.runs ?? 0);
  }
  return { ticksMs: (cpuTicks(pid) - before.ticks) * 10, schedMs: Math.round((ns / 1e6) * 10) / 10, wakeups: runs, processes: seen.size, childFaults: childFaults(pid) - before.faults };
}

/** A real `tether daemon --outside` (`main`: this checkout's CLI, or a baseline's) on a home of
 *  DAEMON_FILES found conversations: after its first report and SETTLE_MS, two IDLE_MS windows one
 *  after the other (the first still holds the runtime's own winding down after start-up: Bun's GC
 *  timer ticks every second until the heap has been still for 30 of them). */
async function daemonWindows(main: string): Promise<{ first: IdleWindow; steady: IdleWindow }> {
  const hub = await startHub();
  const root = mkdtempSync(join(tmpdir(), 'tether-outside-bench-'));
  foundHome(root);
  const env = { PATH: process.env.PATH ?? '', HOME: root, TETHER_HOME: join(root, '.tether'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex'), TETHER_CODEX_BIN: codexBin() };
  const child = spawn(process.execPath, [main, 'daemon', '--outside', '--name', 'bench'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 30_000;
    // Its first report reached the hub: every file listed.
    for (;;) {
      const machines = await hub.store.listMachines({ namespace: hub.namespace });
      const machine = machines[0];
      const listed = machine ? (await hub.store.listOutside({ namespace: hub.namespace, machineId: machine.id, q: '', offset: 0, limit: 1 })).total : 0;
      if (listed >= DAEMON_FILES) break;
      if (Date.now() > deadline) throw new Error(`the daemon listed ${listed} of ${DAEMON_FILES}:\n${out}`);
      await Bun.sleep(200);
    }
    await Bun.sleep(SETTLE_MS);
    const first = await measureIdle(child.pid!);
    return { first, steady: await measureIdle(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await hub.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The idle lines: medians over DAEMON_ROUNDS windows; with TETHER_BENCH_BASELINE (another
 *  checkout's cli/src/main.ts) its windows alternate with these and print as baseline_*. */
async function daemonBench() {
  const baselineMain = process.env.TETHER_BENCH_BASELINE;
  const mains = { this: TETHER_MAIN, ...(baselineMain ? { baseline: baselineMain } : {}) };
  const windows: Record<string, Array<{ first: IdleWindow; steady: IdleWindow }>> = { this: [], baseline: [] };
  for (let round = 0; round < DAEMON_ROUNDS; round++) {
    for (const [which, main] of Object.entries(mains)) windows[which]!.push(await daemonWindows(main));
  }
  const per = `${IDLE_MS / 1000} s`;
  const lines = (prefix: string, list: IdleWindow[], steady: string) => {
    const of = (pick: (w: IdleWindow) => number) => ({ value: median(list.map(pick)), windows: list.map(pick) });
    return [
      { name: `${prefix}daemon_idle${steady}_cpu_ms`, ...of((w) => w.ticksMs), unit: 'ms', per, measure: 'utime+stime ticks', files: DAEMON_FILES, target: 50 },
      { name: `${prefix}daemon_idle${steady}_sched_ms`, ...of((w) => w.schedMs), unit: 'ms', per, measure: "every thread's schedstat", files: DAEMON_FILES },
      { name: `${prefix}daemon_idle${steady}_wakeups`, ...of((w) => w.wakeups), unit: 'runs on a CPU', per },
      { name: `${prefix}daemon_idle${steady}_processes`, value: Math.max(...list.map((w) => w.processes)), unit: 'processes', reaped_child_faults: Math.max(...list.map((w) => w.childFaults)), target: 0 },
    ];
  };
  const both = (prefix: string, list: Array<{ first: IdleWindow; steady: IdleWindow }>) => [...lines(prefix, list.map((w) => w.first), ''), ...lines(prefix, list.map((w) => w.steady), '_steady')];
  return [...both('', windows.this!), ...(baselineMain ? both('baseline_', windows.baseline!) : [])];
}

export async function run() {
  return [...(await listBench()), ...(await daemonBench())];
}
