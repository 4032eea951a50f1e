// gc-timer.ts: an agent session's runner lives for hours and is idle most of that time, and Bun
// (1.4.5) wakes every process once a second for its own idle garbage collection (it reads
// /proc/self/statm and may start a collection): measured, half of an idle runner's CPU (idle bench,
// 45 s windows: 0.178 % of a core with it, 0.089 % without). Bun reads its interval only from the
// environment at start-up (BUN_GC_TIMER_INTERVAL), so `tether claude|codex` re-executes itself once,
// in place (execve: same pid, same terminal, nothing set up yet), with the interval at 120 s. At
// 30 s (Bun's own "slow" interval) each tick still ran a collection in an idle runner, on two GC
// threads started anew each time: ~11 ms of CPU a tick, a quarter of an idle runner's cost beside
// claude (per-thread schedstat, 30 s windows). JavaScriptCore's allocation-driven collections are
// untouched, but alone they let a busy runner's RSS grow faster (runner soak), so a busy session also
// collects every 30 s on its own (collectWhileBusy below); only the release of memory after activity
// stops comes up to 120 s later.
// Where execve is not reachable (no libc by that name, Windows) the session simply runs as it is.
import { dlopen, FFIType, ptr } from 'bun:ffi';

export const GC_TIMER_ENV = 'BUN_GC_TIMER_INTERVAL';
export const IDLE_GC_INTERVAL_MS = 120_000;

function libcNames(): string[] {
  if (process.platform === 'darwin') return ['libc.dylib', '/usr/lib/libSystem.B.dylib'];
  if (process.platform === 'linux') return ['libc.so.6', `libc.musl-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}.so.1`];
  return [];
}

/** The command line that runs this very process again: a compiled binary takes its own arguments;
 *  from source, Bun's flags and the script come first. */
function ownArgv(): string[] {
  const compiled = (process.argv[1] ?? '').startsWith('/$bunfs/');
  return compiled ? [process.execPath, ...process.argv.slice(2)] : [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
}

/** A NULL-terminated array of C strings; `keep` holds the buffers alive across the call. */
function cStrings(values: string[], keep: Buffer[]): BigUint64Array {
  const pointers = new BigUint64Array(values.length + 1);
  values.forEach((value, i) => {
    const buf = Buffer.from(`${value}\0`, 'utf8');
    keep.push(buf);
    pointers[i] = BigInt(ptr(buf));
  });
  return pointers;
}

/** Re-executes this process with Bun's idle GC timer at IDLE_GC_INTERVAL_MS, unless the interval is
 *  already set (by us a moment ago, or by the user). Returns only when it did not re-execute. */
export function execWithIdleGcTimer(): void {
  if (process.env[GC_TIMER_ENV] !== undefined) return;
  for (const name of libcNames()) {
    let execve: ((path: number, argv: number, envp: number) => number) | null = null;
    try {
      const lib = dlopen(name, { execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 } });
      execve = lib.symbols.execve as unknown as (path: number, argv: number, envp: number) => number;
    } catch {
      continue;
    }
    const keep: Buffer[] = [];
    const argv = ownArgv();
    const env = Object.entries({ ...process.env, [GC_TIMER_ENV]: String(IDLE_GC_INTERVAL_MS) })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => `${key}=${value}`);
    const path = Buffer.from(`${argv[0]}\0`, 'utf8');
    const argvArray = cStrings(argv, keep);
    const envArray = cStrings(env, keep);
    execve(ptr(path), ptr(argvArray), ptr(envArray));
    // Still here: execve failed (returns -1). Run as we are; the session works the same.
    return;
  }
}

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
