// pty.ts: one child process in a pseudo-terminal (Bun.Terminal): spawn, write, resize, exit.
// Bytes flow out through `onData`, keyed by absolute byte offset so mirrors can resume by offset.
// It knows nothing about agents. Invariant: `exited` resolves exactly once, after the last byte the
// child wrote was handed out; stop() kills and waits.
//
// Bun reads the PTY's master in its event loop (epoll): output is handed out the moment it is
// written, and an idle session costs nothing (no timer, no polling thread). Bun.Terminal cannot
// pause its reads, so `hold` pauses the writer instead: SIGSTOP to the child's process group until
// the screen model caught up, then SIGCONT. Stopping the terminal's output (tcflow TCOOFF, or
// Ctrl-S) would be the terminal's own way, but Linux then drops the "\r\n" of a newline the child is
// writing at that instant (n_tty's output processing ignores a write refused by a stopped PTY):
// measured, 1 to 4 lost per 20 MB flood. See docs/decisions/terminal.md.
import { constants } from 'node:os';
import { echoMark } from './echo-trace.ts';

export type PtyExit = { exitCode: number; signal: string | null };

export type PtyProcess = {
  pid: number;
  cols: number;
  rows: number;
  write(data: string): void;
  resize(size: { cols: number; rows: number }): void;
  /** Every chunk of output, as read (raw bytes: a UTF-8 character may span two chunks), with the
   *  absolute byte offset of its first byte. Listeners must not modify `data`. */
  onData(listener: (chunk: { data: Uint8Array; offset: number }) => void): () => void;
  exited: Promise<PtyExit>;
  /** Bytes of output so far. */
  offset(): number;
  kill(signal?: string): void;
  stop(): Promise<PtyExit>;
};

/** How long stop() lets the child exit after SIGTERM before SIGKILL. Claude saves its state fast. */
const STOP_GRACE_MS = 3000;
/** After the child exits, how long its last output may take to be read. The master reads EOF once
 *  every holder of the terminal closed it; a background process the child left behind may hold
 *  it for good, so this bounds the wait. */
const EXIT_DRAIN_MS = 250;

export function spawnPty(options: {
  file: string;
  args: string[];
  cwd: string;
  /** The child's whole environment: nothing of this process's own reaches it. */
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Asked after each read: a promise stops the child's process group until it settles. */
  hold?: () => Promise<void> | null;
}): PtyProcess {
  const listeners = new Set<(chunk: { data: Uint8Array; offset: number }) => void>();
  let offset = 0;
  let cols = options.cols;
  let rows = options.rows;
  let done = false;
  let held = false;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      try {
        process.kill(child.pid, signal);
      } catch {
        // already gone
      }
    }
  };
  const holdUntil = (settled: Promise<void>) => {
    held = true;
    signalGroup('SIGSTOP');
    const resume = () => {
      held = false;
      if (!done) signalGroup('SIGCONT');
    };
    settled.then(resume, resume);
  };
  const onBytes = (data: Uint8Array) => {
    echoMark('run_read');
    const at = offset;
    offset += data.byteLength;
    for (const listener of [...listeners]) listener({ data, offset: at });
    if (held || done) return;
    const hold = options.hold?.();
    if (hold) holdUntil(hold);
  };
  let endOfOutput!: () => void;
  const outputEnded = new Promise<void>((resolve) => (endOfOutput = resolve));
  const child = Bun.spawn([options.file, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    terminal: {
      cols: options.cols,
      rows: options.rows,
      name: options.env.TERM ?? 'xterm-256color',
      data: (_terminal, data) => onBytes(data),
      exit: () => endOfOutput(),
    },
  });
  const terminal = child.terminal!;
  const exited = child.exited.then(async (): Promise<PtyExit> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([outputEnded, new Promise<void>((resolve) => (timer = setTimeout(resolve, EXIT_DRAIN_MS)))]);
    clearTimeout(timer);
    done = true;
    terminal.close();
    const code = child.signalCode;
    // Bun names the signal; a number (not seen on Linux) is named the same way.
    const signal = code === null ? null : typeof code === 'number' ? (Object.entries(constants.signals).find(([, n]) => n === code)?.[0] ?? String(code)) : code;
    const signalNumber = signal ? (constants.signals as Record<string, number>)[signal] : undefined;
    return { exitCode: child.exitCode ?? 128 + (signalNumber ?? 0), signal };
  });
  // Signals go to the child's process group (it leads its own session, so its pid is the group's
  // id), as a terminal's Ctrl-C does, and the exit is reported when the child really exits. The
  // group, not the pid: an agent may be a launcher that ignores SIGTERM and SIGHUP and waits for its
  // real process (Gemini CLI relaunches itself in a child node), so a signal to the pid alone
  // reached nobody who would exit, and the PTY's hangup reaches the session leader alone: each such
  // agent outlived its runner, 350 MB and a few % of a core apiece, for good. A held group is
  // continued after the signal, or it would not act on it until the hold ended.
  const kill = (signal: string = 'SIGTERM') => {
    if (done) return;
    signalGroup(signal as NodeJS.Signals);
    if (held) signalGroup('SIGCONT');
  };
  return {
    pid: child.pid,
    get cols() {
      return cols;
    },
    get rows() {
      return rows;
    },
    write: (data) => {
      if (done || terminal.closed) return;
      terminal.write(data);
    },
    resize: (size) => {
      if (done || terminal.closed || (size.cols === cols && size.rows === rows)) return;
      cols = size.cols;
      rows = size.rows;
      terminal.resize(size.cols, size.rows);
    },
    onData: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    exited,
    offset: () => offset,
    kill,
    stop: async () => {
      kill('SIGTERM');
      const timer = setTimeout(() => kill('SIGKILL'), STOP_GRACE_MS);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
