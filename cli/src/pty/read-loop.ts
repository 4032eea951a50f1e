// read-loop.ts: replaces bun-pty's read loop on one PTY with one that yields to the event loop.
//
// bun-pty (0.4.x) reads in a synchronous `while` that only awaits when a read returns nothing. A
// command that writes without pause (`cat big.log`, `yes`) therefore starves the whole runner: the
// screen model never parses (xterm then throws "write data discarded" at 50 MB and the runner
// dies), hub acks and pings are not handled, and the desk's Ctrl-C is not read. This loop is the
// same code with two changes: after READ_YIELD_BYTES it yields a macrotask, and when nothing is
// readable it backs off gradually (IDLE_BACKOFF_MS) instead of always sleeping 8 ms, and wakes at
// once when we write (a key's echo is due). A fixed 8 ms sleep capped a fast command at ~12 MB/s
// (the kernel's PTY buffer refills long before) and added ~8 ms to every echo. It is installed before
// bun-pty starts its own loop (bun-pty starts it in a microtask after spawn); if the native library
// cannot be opened here, bun-pty's loop runs unchanged.
//
// It also skips bun-pty's decode to a string: the bytes go to `onBytes` as read (offsets are byte
// offsets, and every consumer wants bytes), and it reads up to READ_BUFFER_BYTES at a time (see
// there: bun-pty's 4 KiB reads were the runner's main cost).
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { readlinkSync, watch, type FSWatcher } from 'node:fs';
import type { IPty } from 'bun-pty';
import { ptyLibraryPath } from './native-library.ts';
import { echoMark } from './echo-trace.ts';

/** Bytes read between yields, so timers, sockets and the screen parser get a turn. A flood's reads
 *  are large (up to READ_BUFFER_BYTES), so it yields after each of them; small reads (an echo,
 *  claude's redraws) go on reading until this much has come in. */
export const READ_YIELD_BYTES = 64 * 1024;
/** Pauses after consecutive empty reads: right after output (more is likely) poll again at once,
 *  then back off to 8 ms while output is likely to resume, then up to 200 ms once the PTY has been
 *  quiet for ~0.5 s, so an idle session costs ~5 wake-ups a second (it was ~125 at a flat 8 ms: the
 *  runner burnt about as much CPU idle as claude itself). Keys we write reset it (see wake()), so
 *  echoes never wait for the long pause; output claude starts on its own after a long quiet (a
 *  background task ending) reaches the mirror at most 200 ms late. */
const IDLE_BACKOFF_MS = [0, 0, 1, 1, 2, 4, 8, 8, 8, 16, 16, 32, 50, 100, 200] as const;
/** The pause once the whole session is quiet (`sink.quiet()`: no output, key or hook for seconds;
 *  see pace/pace.ts): 2 wake-ups a second instead of 5. What it delays is only output claude starts
 *  on its own after such a silence (a background task's notice): a key, a prompt or a hook wakes
 *  the loop at once, and a working claude redraws its spinner, so it is never quiet. Measured with
 *  the idle bench: the runner's idle CPU fell from ~0.5 % to ~0.3 % of a core (claude: ~1.4 %). */
const QUIET_IDLE_MS = 500;
/** Where the kernel tells us the child wrote (Linux): inotify on the PTY's slave device reports every
 *  write(2) to it as a change, and SIGCHLD says the child exited. With both, a quiet loop sleeps until
 *  one of those events or our own write (wake()); the back-off ramp that follows a wake-up catches the
 *  bytes bun-pty's reader thread queues a moment after the write. Without them (macOS, no /proc, a
 *  child whose stdin is not the PTY) it keeps QUIET_IDLE_MS. */
type OutputEvents = { close(): void };
/** The safety net while asleep on those events: where one is not delivered (a Bun worker thread gets
 *  no signals, seen in the tests: the exit went unseen) the loop must still see output and the exit. */
const EVENT_NET_MS = 5_000;

/** Wakes every sleeping loop on SIGCHLD: one listener for all PTYs (a daemon runs many). */
const childWakers = new Set<() => void>();
const onChild = () => {
  for (const wake of [...childWakers]) wake();
};

function watchOutput(pid: number, wake: () => void): OutputEvents | null {
  if (process.platform !== 'linux' || pid <= 0) return null;
  let slave: string;
  try {
    slave = readlinkSync(`/proc/${pid}/fd/0`);
  } catch {
    return null;
  }
  if (!slave.startsWith('/dev/pts/')) return null;
  let watcher: FSWatcher;
  try {
    watcher = watch(slave, { persistent: false }, () => wake());
  } catch {
    return null;
  }
  watcher.on('error', () => {});
  if (childWakers.size === 0) process.on('SIGCHLD', onChild);
  childWakers.add(wake);
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      watcher.close();
      childWakers.delete(wake);
      if (childWakers.size === 0) process.off('SIGCHLD', onChild);
    },
  };
}
/** After we write (a key), empty reads sleep at most 1 ms for this long, whatever the back-off
 *  says: on a busy box the echo can come after the back-to-back polls and used to land in a 2–8 ms
 *  sleep (traced: about a third of the slowest 2 % of echoes through the hub). Timers are 1 ms at best here;
 *  polling on setImmediate instead caught a quiet box's echo in ~0.01 ms, but spun a core while
 *  typing and did not lower the p99 through the hub on 2 shared cores (measured). ≤ 20 wake-ups per key,
 *  none while idle. */
const ECHO_WINDOW_MS = 20;
/** Right after we write, empty reads nap ECHO_NAP_US at a time (usleep: the thread sleeps, no CPU
 *  spin, no event-loop turn) for up to this long before the timers take over. A tty's echo is in the
 *  kernel at once, and bun-pty's reader thread queues it ~0.1 ms later: past the two setImmediate
 *  polls, so it waited for the next 1 ms timer (Bun's floor) on every key. Measured with
 *  bench/echo-trace.ts, three alternating pairs, load 1.5–1.9: direct echo p50 1.10 → 0.19 ms and
 *  p99 1.2 → 0.23 ms; through the hub p50 1.42 → 0.49 ms and p99 2.9 → 2.1 ms (medians). The same
 *  wait was on every key typed at the desk. At most ~0.6 ms of the runner's thread per key written. */
const ECHO_NAP_MS = 0.6;
const ECHO_NAP_US = 100;

type Nap = (microseconds: number) => void;
let napper: Nap | null | undefined;

/** usleep(3) from the C library, or null where it cannot be opened (then only the timers wait). */
function openNap(): Nap | null {
  if (napper !== undefined) return napper;
  napper = null;
  for (const name of process.platform === 'darwin' ? ['libSystem.B.dylib'] : ['libc.so.6', 'libc.so']) {
    try {
      const libc = dlopen(name, { usleep: { args: [FFIType.u32], returns: FFIType.i32 } });
      napper = (us) => void libc.symbols.usleep(us);
      break;
    } catch {
      // next name
    }
  }
  return napper;
}
/** Bytes per native read. bun-pty's native read takes everything its reader thread queued, hands
 *  out `len` bytes and keeps the rest in a Vec it drains from the front, so every 4 KiB read moved
 *  the whole remainder: under a flood 87 % of the runner's CPU went into that memmove (profiled),
 *  capping a direct PTY at ~10 MB/s on a loaded box. 1 MiB reads take the backlog in one or two
 *  calls (~170–200 MB/s here). */
export const READ_BUFFER_BYTES = 1024 * 1024;

type Native = { read(handle: number, buf: Uint8Array): number; exitCode(handle: number): number };
let native: Native | null | undefined;

function openNative(): Native | null {
  if (native !== undefined) return native;
  native = null;
  try {
    const path = ptyLibraryPath();
    if (!path) return null;
    // The same library bun-pty opened: dlopen returns the loaded one, so handles are shared.
    const lib = dlopen(path, {
      bun_pty_read: { args: [FFIType.i32, FFIType.pointer, FFIType.i32], returns: FFIType.i32 },
      bun_pty_get_exit_code: { args: [FFIType.i32], returns: FFIType.i32 },
    });
    native = {
      read: (handle, buf) => lib.symbols.bun_pty_read(handle, ptr(buf), buf.length),
      exitCode: (handle) => lib.symbols.bun_pty_get_exit_code(handle),
    };
  } catch {
    native = null;
  }
  return native;
}

/** How long the loop waits, once the child is gone, before its next native read. bun-pty's wait
 *  thread queues "exited" as soon as it reaps the child, and the first read that sees it gives its
 *  reader thread only 20 ms more to queue the child's last output; on a loaded box that thread can
 *  be later, and the output (say, claude's reason for failing at start) was lost. Waiting here
 *  first gives it this much more. */
export const EXIT_GRACE_MS = 100;

/** Whether the process is gone (reaped): kill(pid, 0) fails with ESRCH. */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

type BunPtyInternals = {
  handle: number;
  _readLoop: boolean;
  _closing: boolean;
  _onExit: { fire(event: { exitCode: number }): void };
  _startReadLoop: () => Promise<void>;
};

export type ReadLoopControl = {
  /** We just wrote to the PTY: poll now and soon, an echo is on its way. */
  wake(): void;
};

/** Call right after `spawn()`, before awaiting anything. Returns null when bun-pty's loop stays
 *  (then output arrives as bun-pty's strings on `pty.onData`). `onBytes` gets a fresh array per read.
 *  `hold` is asked before each read: a promise means "do not read until it settles" (the runner's
 *  own screen model is far behind; the kernel buffer then slows the writer, as a real terminal does). */
export function installYieldingReadLoop(
  pty: IPty,
  sink: { onBytes(bytes: Uint8Array): void; hold?: () => Promise<void> | null; quiet?: () => boolean },
): ReadLoopControl | null {
  const lib = openNative();
  const t = pty as unknown as BunPtyInternals;
  if (!lib || typeof t._startReadLoop !== 'function' || typeof t.handle !== 'number' || !t._onExit) return null;
  const pid = typeof pty.pid === 'number' ? pty.pid : -1;
  let idleStreak = 0;
  /** Until then, empty reads sleep at most 1 ms (an echo is due: see ECHO_WINDOW_MS). */
  let echoDueUntil = 0;
  /** Until then, an empty read naps instead of sleeping on a timer (see ECHO_NAP_MS). */
  let napUntil = 0;
  const nap = openNap();
  let wakeSleeper: (() => void) | null = null;
  /** The current sleep's length, for the echo trace only. */
  let sleepMs = 0;
  const control: ReadLoopControl = {
    wake: () => {
      echoMark(wakeSleeper ? `run_wake_sleeping_${sleepMs}` : 'run_wake_awake');
      idleStreak = 0;
      const now = performance.now();
      echoDueUntil = now + ECHO_WINDOW_MS;
      napUntil = now + ECHO_NAP_MS;
      wakeSleeper?.();
    },
  };
  t._startReadLoop = async function yieldingReadLoop(this: BunPtyInternals) {
    if (this._readLoop) return;
    this._readLoop = true;
    const buf = new Uint8Array(READ_BUFFER_BYTES);
    let sinceYield = 0;
    let childGone = false;
    /** Set up the first time the loop goes quiet (the child is running by then); null: not available. */
    let events: OutputEvents | null | undefined;
    const eventWake = () => {
      idleStreak = 0; // ramp again: the bytes reach bun-pty's queue a moment after the write
      wakeSleeper?.();
    };
    try {
      while (this._readLoop && !this._closing) {
        if (!childGone && pid > 0 && gone(pid)) {
          childGone = true;
          await new Promise<void>((resolve) => setTimeout(resolve, EXIT_GRACE_MS));
          continue;
        }
        const wait = sink.hold?.();
        if (wait) {
          sinceYield = 0;
          await wait;
          continue;
        }
        const n = lib.read(this.handle, buf);
        if (n > 0) {
          echoMark('run_read');
          idleStreak = 0;
          napUntil = 0;
          sink.onBytes(buf.slice(0, n));
          sinceYield += n;
          if (sinceYield >= READ_YIELD_BYTES) {
            sinceYield = 0;
            await new Promise<void>((resolve) => setImmediate(resolve));
          }
        } else if (n === -2) {
          this._onExit.fire({ exitCode: lib.exitCode(this.handle) });
          break;
        } else if (n < 0) {
          break;
        } else {
          sinceYield = 0;
          if (nap && performance.now() < napUntil) {
            nap(ECHO_NAP_US);
            continue;
          }
          let ms: number = IDLE_BACKOFF_MS[Math.min(idleStreak, IDLE_BACKOFF_MS.length - 1)]!;
          if (idleStreak >= IDLE_BACKOFF_MS.length && sink.quiet?.()) {
            if (events === undefined && !childGone) events = watchOutput(pid, eventWake);
            // Quiet, and the kernel tells us of the child's writes and exit: only the safety net.
            ms = events ? EVENT_NET_MS : QUIET_IDLE_MS;
          }
          if (ms > 1 && performance.now() < echoDueUntil) ms = 1;
          idleStreak++;
          sleepMs = ms;
          await new Promise<void>((resolve) => {
            if (ms === 0) return setImmediate(resolve);
            const timer = setTimeout(done, ms);
            function done() {
              clearTimeout(timer);
              wakeSleeper = null;
              resolve();
            }
            wakeSleeper = done;
          });
        }
      }
    } finally {
      events?.close();
    }
  };
  return control;
}
