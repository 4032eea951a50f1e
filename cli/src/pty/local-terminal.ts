// local-terminal.ts: the user's own terminal at the desk, attached to a PTY.
//
//   keyboard ──stdin (raw)──► onInput ──► PTY        PTY output ──► write() ──► stdout
//   SIGWINCH ──────────────► onResize(size)
//
// Invariant: whatever way the process leaves (normal exit, thrown error, SIGTERM, SIGHUP, SIGINT
// delivered by `kill`), the terminal is put back: cooked mode, cursor shown, and the modes claude
// turns on (bracketed paste, focus events, mouse, kitty keys) turned off. restore() is idempotent.

export type TerminalSize = { cols: number; rows: number };

export type LocalTerminal = {
  /** True when stdin and stdout are TTYs (a person is at the desk). */
  interactive: boolean;
  size(): TerminalSize;
  write(data: string): void;
  /** Put the terminal back and stop reading stdin. Safe to call many times. */
  restore(): void;
  /** Job control (Ctrl-Z): hand the terminal back and stop this process; resolves once the shell
   *  continues it (`fg`), with raw mode back on. Resolves at once when there is no TTY. */
  suspend(): Promise<void>;
};

/** Modes a TUI may have left on, switched off when we hand the terminal back: bracketed paste,
 *  focus events, theme reports (2031), mouse tracking and SGR mouse, kitty keyboard (pop), cursor. */
const RESET_MODES = '\x1b[?2004l\x1b[?1004l\x1b[?2031l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[<u\x1b[?25h';

/** Size used when stdout is not a TTY (headless runs, tests without a desk). */
export const DEFAULT_SIZE: TerminalSize = { cols: 120, rows: 40 };

export function attachLocalTerminal(options: {
  onInput: (data: string) => void;
  onResize: (size: TerminalSize) => void;
  /** A termination signal arrived; the owner stops the child and exits. The terminal is already restored. */
  onSignal: (signal: NodeJS.Signals) => void;
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
}): LocalTerminal {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const interactive = Boolean(stdin.isTTY && stdout.isTTY);
  let restored = false;

  const size = (): TerminalSize =>
    stdout.isTTY && stdout.columns && stdout.rows ? { cols: stdout.columns, rows: stdout.rows } : DEFAULT_SIZE;

  const onData = (chunk: Buffer | string) => options.onInput(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  const onWinch = () => options.onResize(size());
  const signalHandlers = new Map<NodeJS.Signals, () => void>();

  const restore = () => {
    if (restored) return;
    restored = true;
    process.off('SIGWINCH', onWinch);
    process.off('exit', restore);
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    if (interactive) {
      stdin.off('data', onData);
      try {
        stdin.setRawMode(false);
      } catch {
        // stdin already closed
      }
      stdin.pause();
      try {
        stdout.write(RESET_MODES);
      } catch {
        // stdout closed (terminal gone after SIGHUP)
      }
    }
  };

  if (interactive) {
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
    process.on('SIGWINCH', onWinch);
  }
  // 'exit' runs on every normal exit and after an uncaught error has been reported.
  process.on('exit', restore);
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT', 'SIGQUIT'] as const) {
    const handler = () => {
      restore();
      options.onSignal(signal);
    };
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }

  const suspend = (): Promise<void> => {
    if (!interactive || restored) return Promise.resolve();
    return new Promise<void>((resolve) => {
      process.once('SIGCONT', () => {
        if (!restored) {
          stdin.setRawMode(true);
          stdin.resume();
        }
        resolve();
      });
      stdin.setRawMode(false);
      stdin.pause();
      // SIGSTOP, not SIGTSTP: under a PTY with no job-control parent (tests, daemons) a TSTP to an
      // orphaned process group is discarded by the kernel; STOP always stops, and the shell that
      // ran us sees "Stopped" either way. Stop only once the hand-back bytes left this process: a
      // write still queued here would reach the terminal after `fg`, leaving the shell in raw
      // keys and bracketed paste while we are stopped.
      const stop = () => process.kill(process.pid, 'SIGSTOP');
      try {
        stdout.write(`${RESET_MODES}\r\n`, () => stop());
      } catch {
        stop(); // terminal gone: nothing to hand back
      }
    });
  };

  return {
    interactive,
    size,
    write: (data) => {
      if (interactive && !restored) stdout.write(data);
    },
    restore,
    suspend,
  };
}
