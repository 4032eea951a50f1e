// idle.bench.ts: what an idle session costs the machine. A real `tether claude` (claude in its PTY,
// at an empty prompt after one finished turn) on a real hub, with one phone watching the chat and the
// terminal; then the same with a real `tether codex` (Codex against the fake Responses API). Over
// IDLE_WINDOW_MS, CPU time of the runner process and of the agent (its child, with the child's own
// children: Codex's npm launcher is a node process that runs the native codex) is read from /proc
// (utime + stime), as a percentage of one core (the runner's also exactly, from each thread's schedstat:
// `sched_pct`), and their resident memory (VmRSS) at the window's end.
// Windows alternate claude, codex, claude, codex… (ROUNDS each) and each figure is the median, so the
// box's load drifts over both alike. A laptop on battery pays for every wake-up.
//
// TETHER_BENCH_BASELINE=<another checkout's cli/src/main.ts> adds the same windows with that runner,
// alternating with this one (claude new, claude baseline, codex new, codex baseline…), and prints its
// medians as baseline_* beside them: before/after on the same loaded box.
//
//   runner_idle_cpu_pct ≤ claude_idle_cpu_pct / 4 is the goal: tether should not cost what claude does.
//   codex_idle_runner_cpu_pct ≤ codex_idle_cpu_pct / 4 likewise.
import { readFileSync, readdirSync } from 'node:fs';
import { startFakeAnthropic, text } from '../tests/fixtures/fake-anthropic/index.ts';
import { startFakeOpenAI, text as codexText } from '../tests/fixtures/fake-openai/index.ts';
import { createClaudeSandbox } from '../tests/harness/claude.ts';
import { CODEX_READY, createCodexSandbox } from '../tests/harness/codex.ts';
import { startHub, type HubHandle } from '../tests/harness/hub.ts';
import { startRunner, watchSession } from '../tests/harness/runner.ts';

const IDLE_WINDOW_MS = 30_000;
/** Let start-up work (title request, transcript catch-up, hub registration) finish first. */
const SETTLE_MS = 3_000;
const TICKS_PER_S = 100; // USER_HZ on Linux
/** Idle windows per agent, alternating. */
const ROUNDS = 3;

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of the line)
}

/** ns each thread of `pid` has run (/proc/<pid>/task/<tid>/schedstat): exact, where the ticks of
 *  /proc/<pid>/stat are 10 ms samples (an idle runner is a handful of them in a window). */
function threadNs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(task, Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // thread gone
    }
  }
  return out;
}

/** ns run between two threadNs() readings; a thread that started meanwhile counts whole, one that
 *  ended meanwhile is missed (idle, Bun starts and ends few). */
function ranNs(before: Map<string, number>, after: Map<string, number>): number {
  let sum = 0;
  for (const [tid, ns] of after) sum += ns - (before.get(tid) ?? 0);
  return sum;
}

/** A process of the tree that ended between listing and reading counts nothing. */
function ticksOrZero(pid: number): number {
  try {
    return cpuTicks(pid);
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // thread gone
    }
  }
  return out;
}

function treeOf(pid: number): number[] {
  const out = [pid];
  for (const child of childrenOf(pid)) out.push(...treeOf(child));
  return out;
}

/** Resident memory in MB (VmRSS); 0 for a process already gone. */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

type Window = { runnerPct: number; runnerSchedPct: number; agentPct: number; runnerRssMb: number; agentRssMb: number; seconds: number };

/** One idle window of `tether <agent>` after one finished turn, with a phone on chat and terminal. */
async function idleWindow(hub: HubHandle, agent: 'claude' | 'codex', command?: string[]): Promise<Window> {
  const reply = 'ready when you are';
  const fake = agent === 'claude' ? await startFakeAnthropic({ script: [text(reply)] }) : await startFakeOpenAI({ script: [codexText(reply)] });
  const sandbox = agent === 'claude' ? createClaudeSandbox({ fakeApiUrl: fake.url }) : createCodexSandbox({ fakeApiUrl: fake.url });
  const which = command ? { command } : {};
  const runner = agent === 'claude' ? startRunner({ hub, sandbox, args: ['--permission-mode', 'default'], ...which }) : startRunner({ hub, sandbox, agent: 'codex', cols: 110, rows: 35, ...which });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  try {
    await runner.waitForScreen(agent === 'claude' ? /❯/ : CODEX_READY);
    await phone.send('hello');
    await runner.waitForScreen(reply);
    // The phone opens the terminal too, so the runner streams to a viewer.
    await phone.emit('terminal:subscribe', { sessionId: runner.sessionId });
    await Bun.sleep(SETTLE_MS);
    const agentPid = childrenOf(runner.pid).find((pid) => commandOf(pid).includes(agent));
    if (!agentPid) throw new Error(`no ${agent} child under runner ${runner.pid}`);
    const agentTicks = () => treeOf(agentPid).reduce((sum, pid) => sum + ticksOrZero(pid), 0);
    const before = { runner: cpuTicks(runner.pid), agent: agentTicks(), runnerNs: threadNs(runner.pid) };
    const started = performance.now();
    await Bun.sleep(IDLE_WINDOW_MS);
    const seconds = (performance.now() - started) / 1000;
    const pct = (ticks: number) => (ticks / TICKS_PER_S / seconds) * 100;
    const runnerNs = ranNs(before.runnerNs, threadNs(runner.pid));
    return {
      runnerPct: pct(cpuTicks(runner.pid) - before.runner),
      runnerSchedPct: (runnerNs / 1e9 / seconds) * 100,
      agentPct: pct(agentTicks() - before.agent),
      runnerRssMb: rssMb(runner.pid),
      agentRssMb: treeOf(agentPid).reduce((sum, pid) => sum + rssMb(pid), 0),
      seconds,
    };
  } finally {
    phone.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const hub = await startHub();
  const windows: Record<'claude' | 'codex', Window[]> = { claude: [], codex: [] };
  const baselineMain = process.env.TETHER_BENCH_BASELINE;
  const baseline: Record<'claude' | 'codex', Window[]> = { claude: [], codex: [] };
  const baselineCommand = baselineMain ? [process.execPath, baselineMain] : undefined;
  try {
    for (let i = 0; i < ROUNDS; i++) {
      for (const agent of ['claude', 'codex'] as const) {
        windows[agent].push(await idleWindow(hub, agent));
        if (baselineCommand) baseline[agent].push(await idleWindow(hub, agent, baselineCommand));
      }
    }
  } finally {
    await hub.stop();
  }
  const m = (agent: 'claude' | 'codex', key: keyof Window) => round(median(windows[agent].map((w) => w[key])));
  /** The runner's exact run time (schedstat), to three decimals: the ticks are too coarse for it. */
  const m3 = (agent: 'claude' | 'codex', from = windows) => Math.round(median(from[agent].map((w) => w.runnerSchedPct)) * 1000) / 1000;
  const all3 = (agent: 'claude' | 'codex', from = windows) => from[agent].map((w) => Math.round(w.runnerSchedPct * 1000) / 1000);
  const baselineLines = baselineMain
    ? (['claude', 'codex'] as const).map((agent) => ({ name: `baseline_${agent}_idle_runner_sched_pct`, value: m3(agent, baseline), unit: '% of a core', baseline: baselineMain, windows_sched_pct: all3(agent, baseline), this_checkout_sched_pct: all3(agent) }))
    : [];
  const common = { window_s: Math.round(IDLE_WINDOW_MS / 1000), windows: ROUNDS };
  const ratio = (runner: number, agent: number) => (agent > 0 ? round(runner / agent) : -1);
  return [
    { name: 'runner_idle_cpu_pct', value: m('claude', 'runnerPct'), unit: '% of a core', ...common, sched_pct: m3('claude') },
    { name: 'claude_idle_cpu_pct', value: m('claude', 'agentPct'), unit: '% of a core', ...common },
    { name: 'runner_to_claude_idle_cpu_ratio', value: ratio(m('claude', 'runnerPct'), m('claude', 'agentPct')), unit: 'ratio' },
    { name: 'runner_idle_rss_mb', value: m('claude', 'runnerRssMb'), unit: 'MB', claude_rss_mb: m('claude', 'agentRssMb') },
    { name: 'codex_idle_runner_cpu_pct', value: m('codex', 'runnerPct'), unit: '% of a core', ...common, sched_pct: m3('codex') },
    { name: 'codex_idle_cpu_pct', value: m('codex', 'agentPct'), unit: '% of a core', ...common },
    { name: 'codex_runner_to_codex_idle_cpu_ratio', value: ratio(m('codex', 'runnerPct'), m('codex', 'agentPct')), unit: 'ratio' },
    { name: 'codex_idle_runner_rss_mb', value: m('codex', 'runnerRssMb'), unit: 'MB', codex_rss_mb: m('codex', 'agentRssMb') },
    ...baselineLines,
  ];
}
