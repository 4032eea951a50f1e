// bench-timings.ts: when (and only when) TETHER_BENCH_TIMINGS names a file, the hook server and the
// `tether hook` process append one JSON line per hook there: wall-clock milliseconds (sub-ms, from
// performance.timeOrigin, comparable across processes on one machine) at the edges of tether's own
// part of a hook. bench/approvals.bench.ts reads them to split an approval's overhead into what
// tether does (request in → answer out) and what the agent does around it. Unset, nothing is
// recorded and nothing is read; the line holds no secret and no tool input, only the event and times.
import { appendFileSync } from 'node:fs';

export const BENCH_TIMINGS_ENV = 'TETHER_BENCH_TIMINGS';

/** Wall-clock now in ms with sub-ms precision. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

export type HookTiming =
  /** Runner: the request reached the hook server (`in`) and its answer left it (`out`). */
  | { role: 'server'; event: string; in: number; out: number }
  /** Runner, inside the request: it emitted the approval request to the hub (`sent`), the hub's answer reached it (`answered`). */
  | { role: 'runner'; event: string; sent: number; answered: number }
  /** `tether hook` process: it started (`start`, its time origin), posted (`sent`), got the answer (`answered`). */
  | { role: 'client'; event: string; start: number; sent: number; answered: number };

export function recordHookTiming(timing: HookTiming, env: NodeJS.ProcessEnv = process.env): void {
  const file = env[BENCH_TIMINGS_ENV];
  if (!file) return;
  try {
    appendFileSync(file, `${JSON.stringify(timing)}\n`);
  } catch {
    // a bench aid: never let it fail a hook
  }
}
