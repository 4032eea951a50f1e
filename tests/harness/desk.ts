// desk.ts: `tether <verb> …` as a real process at a fake desk: a bun-pty whose bytes feed an
// @xterm/headless screen the test reads and waits on. startRunner (`tether claude`) and startDesk
// (`tether attach`) are both this.
import { spawn as spawnPty } from 'bun-pty';
import { Terminal } from '@xterm/headless';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWaits } from './waiting.ts';

/** After a process exits, its output counts as complete once quiet this long (see `exited`)... */
const EXIT_DRAIN_QUIET_MS = 100;
/** ...or this long after the exit at most. */
const EXIT_DRAIN_MAX_MS = 2_000;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TETHER_MAIN = join(REPO_ROOT, 'cli', 'src', 'main.ts');

/** Default wait for a screen pattern: claude starts in ~1 s; a slow CI box gets ten. */
export const DEFAULT_WAIT_MS = 15_000;
/** stop(): SIGTERM, then SIGKILL after this long. */
const STOP_GRACE_MS = 5_000;

export type TetherPty = {
  pid: number;
  write(data: string): void;
  /** Text as a terminal delivers a paste: inside bracketed-paste markers when the program asked for
   *  them (ESC[?2004h), as is otherwise. One plain write of many characters is neither a person
   *  typing nor a terminal pasting: Codex takes such a burst for an unmarked paste and holds it out
   *  of its input until a later tick flushes it. */
  paste(text: string): void;
  /** The desk screen as plain text (visible rows, trailing spaces trimmed). */
  screenText(): string;
  /** Everything the desk received, raw. */
  output(): string;
  waitForScreen(pattern: RegExp | string, options?: { timeoutMs?: number }): Promise<string>;
  /** Exit code of the tether process. */
  exited: Promise<number>;
  /** A real signal to the pid (bun-pty's kill() ignores the signal and fakes exit 0). */
  kill(signal?: string): void;
  stop(): Promise<void>;
};

/** How a test starts tether: this checkout's sources on this Bun. An installed package or a binary
 *  is started by its own command instead (tests/e2e/install-*.test.ts). */
export const CHECKOUT_TETHER = [process.execPath, TETHER_MAIN];

export function startTetherInPty(options: { args: string[]; env: Record<string, string>; cwd: string; cols?: number; rows?: number; command?: string[] }): TetherPty {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const [program, ...entry] = options.command ?? CHECKOUT_TETHER;
  const pty = spawnPty(program!, [...entry, ...options.args], { name: 'xterm-256color', cols, rows, cwd: options.cwd, env: options.env });
  const term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  let raw = '';
  let done = false;
  const waits = createWaits();
  let lastDataAt = Date.now();
  /** The process exited and its last output was read (see `exited`). */
  let exitSettled = false;
  pty.onData((data) => {
    lastDataAt = Date.now();
    raw += data;
    term.write(data, waits.changed);
  });
  const exited = new Promise<number>((resolveExit) => {
    pty.onExit((event) => {
      done = true;
      // The last bytes a process wrote before exiting can reach this reader after its exit is seen
      // (a CI run read `tether attach`'s exit before its "detached from" line): the exit counts once
      // the output has been quiet for EXIT_DRAIN_QUIET_MS (at most EXIT_DRAIN_MAX_MS).
      const drained = () => Date.now() - lastDataAt >= EXIT_DRAIN_QUIET_MS || Date.now() - exitAt >= EXIT_DRAIN_MAX_MS;
      const exitAt = Date.now();
      const settle = () => {
        if (!drained()) return void setTimeout(settle, EXIT_DRAIN_QUIET_MS);
        exitSettled = true;
        resolveExit(event.exitCode);
        waits.changed();
      };
      settle();
    });
  });
  const screenText = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < term.rows; y++) lines.push(buffer.getLine(buffer.baseY + y)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const matches = (pattern: RegExp | string) => {
    const text = screenText();
    return typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  };
  const kill = (signal: string = 'SIGTERM') => {
    if (done) return;
    try {
      process.kill(pty.pid, signal as NodeJS.Signals);
    } catch {
      // gone
    }
  };
  return {
    pid: pty.pid,
    write: (data) => {
      if (!done) pty.write(data);
    },
    paste: (text) => {
      if (!done) pty.write(term.modes.bracketedPasteMode ? `\x1b[200~${text}\x1b[201~` : text);
    },
    screenText,
    output: () => raw,
    waitForScreen: (pattern, waitOptions = {}) => {
      const timeoutMs = waitOptions.timeoutMs ?? DEFAULT_WAIT_MS;
      return waits.waitFor({
        probe: () => matches(pattern) && screenText(),
        failed: () => (exitSettled ? `tether exited while waiting for ${String(pattern)}; screen:\n${screenText()}\noutput tail:\n${raw.slice(-2000)}` : null),
        timeoutMs,
        timedOut: () => {
          // The bottom first: a CI summary keeps only the error's first lines, and a TUI's input and
          // footer (what the wait is usually about) sit under its banner.
          const rows = screenText().split('\n');
          const bottom = rows.filter((row) => row.trim() !== '').slice(-8).join('\n');
          return `timed out after ${timeoutMs} ms waiting for ${String(pattern)}; bottom of the screen:\n${bottom}\nwhole screen:\n${rows.join('\n')}`;
        },
      });
    },
    exited,
    kill,
    stop: async () => {
      kill('SIGTERM');
      const timer = setTimeout(() => {
        kill('SIGKILL');
        if (!done) pty.kill();
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
      term.dispose();
    },
  };
}

/** How long one Ctrl-C may take to show claude's "Press Ctrl-C again to exit" before another. */
const CTRL_C_HINT_MS = 4_000;

/** Quits claude at its idle prompt the way a person does: Ctrl-C until it says "Ctrl-C again",
 *  then Ctrl-C. claude 2.1.331 sometimes takes the first press right after a turn without arming
 *  the exit (the hint never shows), as if it were still finishing the turn; a person presses again. */
export async function quitWithCtrlC(desk: TetherPty, options: { presses?: number } = {}): Promise<number> {
  const presses = options.presses ?? 3;
  for (let i = 1; ; i++) {
    desk.write('\x03');
    try {
      await desk.waitForScreen(/Ctrl-C again/, { timeoutMs: CTRL_C_HINT_MS });
      break;
    } catch (error) {
      if (i >= presses) throw error;
    }
  }
  desk.write('\x03');
  return desk.exited;
}
