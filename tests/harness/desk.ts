// desk.ts: `tether <verb> …` as a real process at a fake desk: a PTY (Bun's own) whose bytes feed an
// @xterm/headless screen the test reads and waits on. startRunner (`tether claude`) and startDesk
// (`tether attach`) are both this.
//
// Not bun-pty here: its native reader reports the child's exit once its reader thread has been
// behind for 20 ms, and drops what that thread reads later: on a loaded CI box, `tether codex --join`
// printed its refusal and exited, and the desk's screen stayed empty. Bun's terminal reads the PTY
// to its end (EOF), and `exited` waits for that.
import { Terminal } from '@xterm/headless';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWaits } from './waiting.ts';

/** After a process exits, its output is complete at the PTY's end of file, or this long after the exit
 *  at most (a process it left behind may hold the terminal open). */
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
  /** A real signal to the pid (nothing once it has exited: its pid may be reused). */
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
  const term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  let raw = '';
  let done = false;
  const waits = createWaits();
  /** The process exited and its last output was read (see `exited`). */
  let exitSettled = false;
  const decoder = new TextDecoder();
  let endOfOutput: () => void = () => {};
  const outputEnded = new Promise<void>((resolve) => (endOfOutput = resolve));
  const proc = Bun.spawn([program!, ...entry, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    terminal: {
      cols,
      rows,
      name: 'xterm-256color',
      data: (_terminal, bytes) => {
        const data = decoder.decode(bytes, { stream: true });
        raw += data;
        term.write(data, waits.changed);
      },
      exit: () => endOfOutput(),
    },
  });
  const pty = proc.terminal!;
  const exited = proc.exited.then(async (code) => {
    done = true;
    await Promise.race([outputEnded, new Promise((resolve) => setTimeout(resolve, EXIT_DRAIN_MAX_MS))]);
    // The screen parses what it was given before the exit counts as seen.
    await new Promise<void>((resolve) => term.write('', resolve));
    exitSettled = true;
    waits.changed();
    return code;
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
      process.kill(proc.pid, signal as NodeJS.Signals);
    } catch {
      // gone
    }
  };
  return {
    pid: proc.pid,
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
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
      pty.close();
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
