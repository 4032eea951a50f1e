// idle.bench.ts: what an idle session costs the machine. A real `tether claude` (claude in its PTY,
// at an empty prompt after one finished turn) on a real hub, with one phone watching the chat and the
// terminal. Over IDLE_WINDOW_MS, CPU time of the runner process and of claude (its child) is read
// from /proc (utime + stime), as a percentage of one core. A laptop on battery pays for every wake-up.
//
//   runner_idle_cpu_pct ≤ claude_idle_cpu_pct / 4 is the goal: tether should not cost what claude does.
import { readFileSync, readdirSync } from 'node:fs';
import { startFakeAnthropic, text } from '../tests/fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../tests/harness/claude.ts';
import { startHub } from '../tests/harness/hub.ts';
import { startRunner, watchSession } from '../tests/harness/runner.ts';

const IDLE_WINDOW_MS = 30_000;
/** Let start-up work (title request, transcript catch-up, hub registration) finish first. */
const SETTLE_MS = 3_000;
const TICKS_PER_S = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15 of the line)
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

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string } & Record<string, unknown>>> {
  const hub = await startHub();
  const fake = await startFakeAnthropic({ script: [text('ready when you are')] });
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  const runner = startRunner({ hub, sandbox, args: ['--permission-mode', 'default'] });
  const phone = await watchSession({ hub, sessionId: runner.sessionId });
  try {
    await runner.waitForScreen(/❯/);
    await phone.send('hello');
    await runner.waitForScreen('ready when you are');
    // The phone opens the terminal too, so the runner streams to a viewer.
    await phone.emit('terminal:subscribe', { sessionId: runner.sessionId });
    await Bun.sleep(SETTLE_MS);
    const claudePid = childrenOf(runner.pid).find((pid) => /claude/.test(commandOf(pid)));
    if (!claudePid) throw new Error(`no claude child under runner ${runner.pid}`);
    const before = { runner: cpuTicks(runner.pid), claude: cpuTicks(claudePid) };
    const started = performance.now();
    await Bun.sleep(IDLE_WINDOW_MS);
    const seconds = (performance.now() - started) / 1000;
    const pct = (ticks: number) => Math.round((ticks / TICKS_PER_S / seconds) * 100 * 100) / 100;
    const runnerPct = pct(cpuTicks(runner.pid) - before.runner);
    const claudePct = pct(cpuTicks(claudePid) - before.claude);
    return [
      { name: 'runner_idle_cpu_pct', value: runnerPct, unit: '% of a core', window_s: Math.round(seconds) },
      { name: 'claude_idle_cpu_pct', value: claudePct, unit: '% of a core', window_s: Math.round(seconds) },
      { name: 'runner_to_claude_idle_cpu_ratio', value: claudePct > 0 ? Math.round((runnerPct / claudePct) * 100) / 100 : -1, unit: 'ratio' },
    ];
  } finally {
    phone.stop();
    await runner.stop();
    await fake.stop();
    sandbox.stop();
    await hub.stop();
  }
}
