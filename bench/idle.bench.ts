// idle.bench.ts: what an idle session costs the machine. A real `tether claude` (claude in its PTY,
// at an empty prompt after one finished turn) on a real hub, with one phone watching the chat and the
// terminal; then the same with a real `tether codex` (Codex against the fake Responses API). Over
// IDLE_WINDOW_MS, CPU time of the runner process and of the agent (its child, with the child's own
// children: Codex's npm launcher is a node process that runs the native codex) is read from /proc
// (utime + stime), as a percentage of one core (the runner's also exactly, from each thread's schedstat:
// `sched_pct`), and their resident memory (VmRSS) at the window's end.
// Gemini (the real Gemini CLI against the fake Gemini API) likewise. TETHER_BENCH_IDLE_AGENTS picks.
// Windows alternate claude, codex, gemini, claude… (ROUNDS each) and each figure is the median, so the
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
import { startFakeGemini, text as geminiText } from '../tests/fixtures/fake-gemini/index.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY } from '../tests/harness/gemini.ts';
import { startHub, type HubHandle } from '../tests/harness/hub.ts';
import { startRunner, watchSession } from '../tests/harness/runner.ts';

const IDLE_WINDOW_MS = 30_000;
/** Let start-up work (title request, transcript catch-up, hub registration) finish first. */
const SETTLE_MS = 3_000;
const TICKS_PER_S = 100; // USER_HZ on Linux
/** Idle windows per agent, alternating. */
const ROUNDS = 3;

export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of the line)
}

/** ns each thread of `pid` has run (/proc/<pid>/task/<tid>/schedstat): exact, where the ticks of
 *  /proc/<pid>/stat are 10 ms samples (an idle runner is a handful of them in a window). */
export function threadNs(pid: number): Map<string, number> {
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

export function childrenOf(pid: number): number[] {
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
type Agent = 'claude' | 'codex' | 'gemini';

/** The agent's fake API, sandbox and `tether <agent>`, and how to know its prompt is up. */
async function startAgent(hub: HubHandle, agent: Agent, reply: string, command?: string[]) {
  const which = command ? { command } : {};
  if (agent === 'claude') {
    const fake = await startFakeAnthropic({ script: [text(reply)] });
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    return { fake, sandbox, ready: /❯/, runner: startRunner({ hub, sandbox, args: ['--permission-mode', 'default'], ...which }) };
  }
  if (agent === 'codex') {
    const fake = await startFakeOpenAI({ script: [codexText(reply)] });
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    return { fake, sandbox, ready: CODEX_READY, runner: startRunner({ hub, sandbox, agent: 'codex', cols: 110, rows: 35, ...which }) };
  }
  const fake = await startFakeGemini({ script: [geminiText(reply)] });
  const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
  return { fake, sandbox, ready: GEMINI_READY, runner: startRunner({ hub, sandbox, agent: 'gemini', cols: 110, rows: 35, args: ['-m', FAKE_GEMINI_MODEL], ...which }) };
}

async function idleWindow(hub: HubHandle, agent: Agent, command?: string[]): Promise<Window> {
  const reply = 'ready when you are';
  const { fake, sandbox, ready, runner } = await startAgent(hub, agent, reply, command);
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  try {
    await runner.waitForScreen(ready, { timeoutMs: 60_000 });
    if (agent === 'gemini') {
      // As tests/harness/gemini-world.ts: typed once its SessionStart hook has named the session.
      await phone.waitFor(() => phone.session()?.agentSessionId, { what: 'SessionStart named the session' });
      await runner.waitForScreen(/^(?![^]*Executing Hook)/);
      // On a loaded box an Enter right after that can still leave the prompt in its box (the
      // prompt-queue work on Gemini is another branch's); the e2e tests give it a second too.
      await Bun.sleep(1_000);
    }
    await phone.send('hello');
    await runner.waitForScreen(reply, { timeoutMs: 30_000 });
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

/** The lines of one agent's windows; claude's keep their first names (runner_idle_cpu_pct…). */
function agentLines(agent: Agent, w: Window[]): Array<{ name: string; value: number; unit: string } & Record<string, unknown>> {
  const m = (key: keyof Window) => round(median(w.map((x) => x[key])));
  const common = { window_s: Math.round(IDLE_WINDOW_MS / 1000), windows: w.length };
  const ratio = (runner: number, own: number) => (own > 0 ? round(runner / own) : -1);
  const names =
    agent === 'claude'
      ? { runner: 'runner_idle_cpu_pct', agent: 'claude_idle_cpu_pct', ratio: 'runner_to_claude_idle_cpu_ratio', rss: 'runner_idle_rss_mb' }
      : { runner: `${agent}_idle_runner_cpu_pct`, agent: `${agent}_idle_cpu_pct`, ratio: `${agent}_runner_to_${agent}_idle_cpu_ratio`, rss: `${agent}_idle_runner_rss_mb` };
  return [
    { name: names.runner, value: m('runnerPct'), unit: '% of a core', ...common, sched_pct: sched(w) },
    { name: names.agent, value: m('agentPct'), unit: '% of a core', ...common },
    { name: names.ratio, value: ratio(m('runnerPct'), m('agentPct')), unit: 'ratio' },
    { name: names.rss, value: m('runnerRssMb'), unit: 'MB', [`${agent}_rss_mb`]: m('agentRssMb') },
  ];
}

/** The runner's exact run time (schedstat), to three decimals: the ticks are too coarse for it. */
const sched = (w: Window[]) => Math.round(median(w.map((x) => x.runnerSchedPct)) * 1000) / 1000;
const schedEach = (w: Window[]) => w.map((x) => Math.round(x.runnerSchedPct * 1000) / 1000);

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  // TETHER_BENCH_IDLE_AGENTS=claude,codex picks agents (default all three).
  const agents = (process.env.TETHER_BENCH_IDLE_AGENTS ?? 'claude,codex,gemini').split(',').filter((a): a is Agent => a === 'claude' || a === 'codex' || a === 'gemini');
  const hub = await startHub();
  const windows: Record<Agent, Window[]> = { claude: [], codex: [], gemini: [] };
  const baselineMain = process.env.TETHER_BENCH_BASELINE;
  const baseline: Record<Agent, Window[]> = { claude: [], codex: [], gemini: [] };
  const baselineCommand = baselineMain ? [process.execPath, baselineMain] : undefined;
  try {
    for (let i = 0; i < ROUNDS; i++) {
      for (const agent of agents) {
        windows[agent].push(await idleWindow(hub, agent));
        if (baselineCommand) baseline[agent].push(await idleWindow(hub, agent, baselineCommand));
      }
    }
  } finally {
    await hub.stop();
  }
  const baselineLines = baselineMain
    ? agents.map((agent) => ({ name: `baseline_${agent}_idle_runner_sched_pct`, value: sched(baseline[agent]), unit: '% of a core', baseline: baselineMain, windows_sched_pct: schedEach(baseline[agent]), this_checkout_sched_pct: schedEach(windows[agent]) }))
    : [];
  return [...agents.flatMap((agent) => agentLines(agent, windows[agent])), ...baselineLines];
}
