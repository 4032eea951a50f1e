// gc-timer.ts: an agent session's runner lives for hours and is idle most of that time, and Bun
// (1.4.5) wakes every process once a second for its own idle garbage collection (it reads
// /proc/self/statm and may start a collection): measured, half of an idle runner's CPU (idle bench,
// 45 s windows: 0.178 % of a core with it, 0.089 % without). Bun reads its interval only from the
// environment at start-up (BUN_GC_TIMER_INTERVAL), so `tether claude|codex|gemini` starts with it at
// 120 s (runtime/start-env.ts re-executes the process in place). At 30 s (Bun's own "slow" interval)
// each tick still ran a collection in an idle runner, on two GC threads started anew each time:
// ~11 ms of CPU a tick, a quarter of an idle runner's cost beside claude (per-thread schedstat, 30 s
// windows). JavaScriptCore's allocation-driven collections are untouched, but alone they let a busy
// runner's RSS grow faster (runner soak), so a busy session also collects every 30 s on its own
// (collectWhileBusy below); only the release of memory after activity stops comes up to 120 s later.

export const GC_TIMER_ENV = 'BUN_GC_TIMER_INTERVAL';
export const IDLE_GC_INTERVAL_MS = 120_000;

/** While the session is busy, a collection this often: what Bun's timer did at 30 s. */
export const BUSY_GC_INTERVAL_MS = 30_000;

/** Bun's timer at IDLE_GC_INTERVAL_MS left a busy runner's memory to JavaScriptCore's allocation-driven
 *  collections, and its RSS grew faster (runner soak, 30 min: +26 MB/h against +5 and +10 MB/h with
 *  the timer at 30 s). So while the pace is not quiet, the runner asks for an asynchronous collection
 *  every BUSY_GC_INTERVAL_MS itself; a quiet pace's poll sleeps without a timer, so an idle runner
 *  pays nothing for it. Returns the stop function. */
export function collectWhileBusy(o: { poll: (p: { everyMs: number; tick: () => void }) => () => void; everyMs?: number; gc?: () => void }): () => void {
  const gc = o.gc ?? (() => Bun.gc(false));
  return o.poll({ everyMs: o.everyMs ?? BUSY_GC_INTERVAL_MS, tick: gc });
}
