// pty.ts: one child process in a pseudo-terminal (bun-pty): spawn, write, resize, exit.
// Bytes flow out through `onData`, keyed by absolute byte offset so mirrors can resume by offset.
// It knows nothing about claude. Invariant: `exited` resolves exactly once; stop() kills and waits.
import { spawn, type IPty } from 'bun-pty';
import { exactEnvCommand } from './exact-env.ts';
import { installYieldingReadLoop } from './read-loop.ts';

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

export function spawnPty(options: {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  /** Asked before each read: a promise holds reading until it settles (see read-loop.ts). */
  hold?: () => Promise<void> | null;
  /** The session is quiet (see pace/pace.ts): reading may pause longer (see read-loop.ts). */
  quiet?: () => boolean;
}): PtyProcess {
  const command = exactEnvCommand(options);
  const pty: IPty = spawn(command.file, command.args, {
    name: options.env.TERM ?? 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: options.env,
  });
  // Before bun-pty's own loop starts (a microtask from now): nonstop output must not starve us.
  const listeners = new Set<(chunk: { data: Uint8Array; offset: number }) => void>();
  let offset = 0;
  let cols = options.cols;
  let rows = options.rows;
  let done = false;
  const emit = (data: Uint8Array) => {
    const at = offset;
    offset += data.byteLength;
    for (const listener of [...listeners]) listener({ data, offset: at });
  };
  const readLoop = installYieldingReadLoop(pty, { onBytes: emit, ...(options.hold ? { hold: options.hold } : {}), ...(options.quiet ? { quiet: options.quiet } : {}) });
  if (!readLoop) {
    // bun-pty's own loop (native library not reachable from here): it hands out decoded strings.
    const encoder = new TextEncoder();
    pty.onData((data) => emit(encoder.encode(data)));
  }
  const exited = new Promise<PtyExit>((resolve) => {
    pty.onExit((event) => {
      done = true;
      resolve({ exitCode: event.exitCode, signal: event.signal === undefined || event.signal === 0 ? null : String(event.signal) });
    });
  });
  // bun-pty's own kill() ignores the signal, closes the PTY and reports exit code 0 at once, which
  // would lose claude's real exit and cut its shutdown short. Signals go to the child's process group
  // instead (it leads its own session, so its pid is the group's id), as a terminal's Ctrl-C does,
  // and the exit is reported when the child really exits; bun-pty's kill is only the last resort in
  // stop(). The group, not the pid: an agent may be a launcher that ignores SIGTERM and SIGHUP and
  // waits for its real process (Gemini CLI relaunches itself in a child node), so a signal to the
  // pid alone reached nobody who would exit, and the PTY's hangup reaches the session leader alone:
  // each such agent outlived its runner, 350 MB and a few % of a core apiece, for good.
  const kill = (signal: string = 'SIGTERM') => {
    if (done) return;
    try {
      process.kill(-pty.pid, signal as NodeJS.Signals);
    } catch {
      try {
        process.kill(pty.pid, signal as NodeJS.Signals);
      } catch {
        // already gone
      }
    }
  };
  const forceClose = () => {
    if (done) return;
    try {
      pty.kill();
    } catch {
      // already gone
    }
  };
  return {
    pid: pty.pid,
    get cols() {
      return cols;
    },
    get rows() {
      return rows;
    },
    write: (data) => {
      if (done) return;
      pty.write(data);
      readLoop?.wake();
    },
    resize: (size) => {
      if (done || (size.cols === cols && size.rows === rows)) return;
      cols = size.cols;
      rows = size.rows;
      pty.resize(size.cols, size.rows);
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
      const timer = setTimeout(() => {
        kill('SIGKILL');
        forceClose();
      }, STOP_GRACE_MS);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}
