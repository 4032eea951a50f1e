// start-env.ts: the environment a long-lived tether process starts Bun with. Bun and JavaScriptCore
// read these only from the environment, once, at start-up, so main.ts re-executes a long-lived verb
// (`tether claude|codex|gemini`, `hub`, `daemon`, `attach`: its `startEnv`) in place before it runs
// (execve: same pid, same terminal, nothing set up yet) when one is missing. A value already set (by the user, or by us a moment ago) is kept.
// Where execve is not reachable (no libc by that name, Windows) the process runs as it is.
//
// - BUN_JSC_useFTLJIT=0 (every long-lived verb): JavaScriptCore's top tier (FTL) compiles hot code
//   in background threads through a fresh process's first thousands of events, and the runner kept
//   the memory. Measured (docs/decisions/runner.md, "Memory of a busy runner"; terminal.md, "The echo
//   tail is the JIT warming up"): in 40-minute runner soaks the peaks stayed lower without it (87–88
//   against 92 MB; the slope swung between runs: +6.3 with FTL, +3.0 and +8.5 without); on 2 cores the compiler threads made the
//   echo's cold p99; terminal throughput through the hub and its ingest did not suffer. tether's work is short
//   bursts of socket, JSON and parser code, which the tier below (DFG) runs well.
// - BUN_GC_TIMER_INTERVAL=120000 (agent sessions): see pace/gc-timer.ts.
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { GC_TIMER_ENV, IDLE_GC_INTERVAL_MS } from '../pace/gc-timer.ts';

/** Every long-lived verb (hub, daemon, attach; the runners' set adds to it). */
export const SERVER_START_ENV: Readonly<Record<string, string>> = { BUN_JSC_useFTLJIT: '0' };
/** An agent session's runner: idle for hours, so also Bun's idle collection at 120 s. */
export const RUNNER_START_ENV: Readonly<Record<string, string>> = { ...SERVER_START_ENV, [GC_TIMER_ENV]: String(IDLE_GC_INTERVAL_MS) };
/** By a verb's `startEnv` (commands/command.ts), for main.ts. */
export const START_ENV = { server: SERVER_START_ENV, runner: RUNNER_START_ENV } as const;

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

/** The environment to start again with, or null when nothing in `wanted` is missing. */
export function missingStartEnv(env: NodeJS.ProcessEnv, wanted: Readonly<Record<string, string>>): Record<string, string> | null {
  const missing = Object.entries(wanted).filter(([key]) => env[key] === undefined);
  if (missing.length === 0) return null;
  const next: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) next[key] = value;
  for (const [key, value] of missing) next[key] = value;
  return next;
}

/** Re-executes this process with `wanted` added to its environment where missing. Returns only
 *  when it did not re-execute (nothing missing, or execve unavailable or failed). */
export function execWithStartEnv(wanted: Readonly<Record<string, string>>): void {
  const next = missingStartEnv(process.env, wanted);
  if (!next) return;
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
    const path = Buffer.from(`${argv[0]}\0`, 'utf8');
    execve(ptr(path), ptr(cStrings(argv, keep)), ptr(cStrings(Object.entries(next).map(([key, value]) => `${key}=${value}`), keep)));
    // Still here: execve failed (returns -1). Run as we are; the process works the same.
    return;
  }
}
