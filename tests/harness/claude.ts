// claude.ts: run the pinned, real claude CLI offline in a private sandbox — a temp CLAUDE_CONFIG_DIR
// (onboarding done, cwd trusted, fake API key approved), a temp HOME and TMPDIR, and a project dir — either
// in a PTY mirrored into an @xterm/headless screen, or however a test likes with `sandbox.env`.
//
//   test ──write()──► bun-pty ──► claude ──HTTP──► fake-anthropic (ANTHROPIC_BASE_URL)
//        ◄─screenText()/waitForScreen()── @xterm/headless ◄──bytes──┘
//
// Invariant: nothing escapes the sandbox. The env is process.env minus every CLAUDE*/ANTHROPIC*
// variable (so an outer claude session, OAuth token or model override never leaks in), plus the
// offline recipe of shared/CLAUDE-CODE.md §2; stop() removes every dir the sandbox created.

import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn as spawnPty, type IPty } from 'bun-pty';
import { Terminal } from '@xterm/headless';
import { createWaits } from './waiting.ts';

/** Any key works against the fake; `sk-ant-` keeps claude's key checks on their usual path. */
export const FAKE_API_KEY = 'sk-ant-api03-tether-fake-key-000000000000000000000000';

/**
 * Idle with an empty input box, read from the box's structure and not from one version's footer: a
 * `❯` row with nothing typed between two `─` rules, and no busy footer (`esc to interrupt`) under it.
 * The footer's words differ by version and mode (2.1.197 `? for shortcuts`, 2.1.330 `⏵⏵ auto mode
 * on`, `⏸ manual mode on · ? for shortcuts`), so they are not looked at. claude draws `❯` + U+00A0;
 * screenText() turns that into a plain space and trims line ends. The permission dialog and the
 * AskUserQuestion picker replace the box, so they never match.
 */
export const READY_PATTERN = /^─{10,}\n❯[ \u00a0]*\n─{10,}(?:\n(?![^\n]*esc to interrupt)|$)/m;

/** claude exits ~40 ms after SIGTERM; 3 s before SIGKILL covers a loaded machine. */
const KILL_GRACE_MS = 3_000;

/** 30 s: claude is ready in ~0.4 s here; the margin is for a loaded CI box running tests in parallel. */
const DEFAULT_SCREEN_TIMEOUT_MS = 30_000;

export type ClaudeSandbox = {
  /** CLAUDE_CONFIG_DIR: `.claude.json`, `projects/`, `sessions/`, `history.jsonl` land here. */
  configDir: string;
  /** Realpath of the project dir claude runs in (trusted in `.claude.json`). */
  cwd: string;
  /** Temp HOME, so claude never touches the real one. */
  home: string;
  env: Record<string, string>;
  /** `<configDir>/projects/<cwd with non-alphanumerics as "-">`: where this cwd's transcripts go. */
  projectDir: string;
  /** `<projectDir>/<sessionId>.jsonl`. */
  transcriptPath(sessionId: string): string;
  /** Absolute paths of the `*.jsonl` transcripts written so far. */
  transcripts(): string[];
  stop(): void;
};

/** The pinned claude: `TETHER_CLAUDE_BIN`, else the repo's `node_modules/.bin/claude`. */
export function claudeBin(): string {
  const fromEnv = process.env.TETHER_CLAUDE_BIN;
  if (fromEnv) return fromEnv;
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return join(repoRoot, 'node_modules', '.bin', 'claude');
}

/** The directory name claude uses for a project: every non-alphanumeric character becomes "-". */
export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

function sandboxEnv(options: { fakeApiUrl: string; configDir: string; home: string; tmp: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(CLAUDE|ANTHROPIC)/.test(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: options.home,
    // Else claude keeps per-project task output under /tmp/claude-<uid>/, outside the sandbox.
    CLAUDE_CODE_TMPDIR: options.tmp,
    TMPDIR: options.tmp,
    ANTHROPIC_BASE_URL: options.fakeApiUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    CLAUDE_CONFIG_DIR: options.configDir,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    TERM: 'xterm-256color',
    // What a desk has; CI's bare environment has no locale, and claude draws some edges by it.
    LANG: 'C.UTF-8',
  };
}

export function createClaudeSandbox(options: { fakeApiUrl: string; cwd?: string }): ClaudeSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tether-claude-')));
  const configDir = join(root, 'config');
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  for (const dir of [configDir, home, tmp]) mkdirSync(dir);
  let cwd: string;
  if (options.cwd) {
    cwd = realpathSync(options.cwd);
  } else {
    cwd = join(root, 'project');
    mkdirSync(cwd);
  }
  const claudeJson = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [FAKE_API_KEY.slice(-20)], rejected: [] },
    projects: { [cwd]: { hasTrustDialogAccepted: true } },
  };
  writeFileSync(join(configDir, '.claude.json'), JSON.stringify(claudeJson, null, 2));
  const projectDir = join(configDir, 'projects', claudeProjectDirName(cwd));
  return {
    configDir,
    cwd,
    home,
    env: sandboxEnv({ fakeApiUrl: options.fakeApiUrl, configDir, home, tmp }),
    projectDir,
    transcriptPath: (sessionId) => join(projectDir, `${sessionId}.jsonl`),
    transcripts: () =>
      existsSync(projectDir)
        ? readdirSync(projectDir)
            .filter((name) => name.endsWith('.jsonl'))
            .map((name) => join(projectDir, name))
        : [],
    stop: () => rmSync(root, { recursive: true, force: true }),
  };
}

// ---- PTY --------------------------------------------------------------------------------------

export type ScreenMatcher = RegExp | ((screen: string) => boolean);
export type ClaudeExit = { exitCode: number; signal?: number | string };

export type ClaudePty = {
  pid: number;
  sandbox: ClaudeSandbox;
  /** The headless emulator fed with every byte claude wrote. */
  terminal: Terminal;
  /** The visible rows, U+00A0 as a space, each row right-trimmed, joined with "\n". */
  screenText(): string;
  /** Scrollback plus visible rows, same normalisation. */
  bufferText(): string;
  /** Every byte (decoded) claude wrote, for debugging and raw-sequence assertions. */
  output(): string;
  /** Resolves with the screen text once it matches; rejects (with the screen) on timeout or exit. */
  waitForScreen(matcher: ScreenMatcher, options?: { timeoutMs?: number }): Promise<string>;
  /** waitForScreen(READY_PATTERN). */
  waitForReady(options?: { timeoutMs?: number }): Promise<string>;
  write(data: string): void;
  /**
   * Type `text` into the input box, wait until its echo is on screen, then press Enter. Sending
   * text and "\r" in one write makes claude treat it as a paste (the Enter becomes a newline).
   */
  submit(text: string, options?: { timeoutMs?: number }): Promise<void>;
  /** Resolves when claude is gone: `exitCode` 0 after a clean quit, 128+n after signal n. */
  exited: Promise<ClaudeExit>;
  /** Signal claude (default SIGTERM; no-op once exited). Await `exited` to know it is gone. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM (SIGKILL after a grace period), wait for the exit, release the PTY and emulator. */
  stop(): Promise<void>;
};

/**
 * The text in claude's input box: the rows between the last two `─` rules of a screenText(), or
 * undefined when no box is drawn (a dialog or picker has replaced it). Wrapped rows keep their
 * two-space indent; the leading `❯ ` is dropped.
 */
export function inputBoxText(screen: string): string | undefined {
  const lines = screen.split('\n');
  const rules = lines.flatMap((line, index) => (/^─{10,}$/.test(line) ? [index] : []));
  const [above, below] = rules.slice(-2);
  if (above === undefined || below === undefined) return undefined;
  return lines.slice(above + 1, below).join('\n').replace(/^❯ ?/, '');
}

/** How often `takeStrayKeys` presses again while claude's box has not shown the last press. */
const PROBE_EVERY_MS = 700;
const PROBE = 'x';
const BACKSPACE = '\x7f';

/**
 * After keys that may still be on their way to claude (an Esc pressed again while its dialog was
 * still drawn), the box can look ready while claude has not read them: an Esc then typed "n" is
 * Alt+n, and the "n" is lost. A key shown in the box was read after everything written before it,
 * so: type a probe into the empty box (again while it stays empty: the first may go to such an Esc,
 * or be dropped as the box takes the keys back), then one Backspace for each probe written (one
 * eaten by an Esc leaves a Backspace for the empty box, which does nothing), and wait for the box
 * ready and empty. What is typed next reaches an empty box with nothing of ours before it.
 */
export async function takeStrayKeys(claude: Pick<ClaudePty, 'screenText' | 'write' | 'waitForScreen' | 'waitForReady'>, options: { timeoutMs?: number } = {}): Promise<void> {
  let probes = 0;
  const probe = () => {
    probes += 1;
    claude.write(PROBE);
  };
  const pressing = setInterval(() => {
    if (inputBoxText(claude.screenText()) === '') probe();
  }, PROBE_EVERY_MS);
  probe();
  await claude.waitForScreen((screen) => (inputBoxText(screen) ?? '').includes(PROBE), options).finally(() => clearInterval(pressing));
  claude.write(BACKSPACE.repeat(probes));
  await claude.waitForReady(options);
}

function matches(matcher: ScreenMatcher, screen: string): boolean {
  return typeof matcher === 'function' ? matcher(screen) : matcher.test(screen);
}

function rowsText(terminal: Terminal, from: number, to: number): string {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = from; y < to; y += 1) {
    rows.push((buffer.getLine(y)?.translateToString(true) ?? '').replace(/\u00a0/g, ' ').trimEnd());
  }
  return rows.join('\n');
}

export function spawnClaudeInPty(options: {
  sandbox: ClaudeSandbox;
  args?: string[];
  cols?: number;
  rows?: number;
  /** Extra env on top of sandbox.env. */
  env?: Record<string, string>;
}): ClaudePty {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  // Scrollback large enough that a whole test conversation stays in bufferText().
  const terminal = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
  const pty: IPty = spawnPty(claudeBin(), options.args ?? [], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.sandbox.cwd,
    env: { ...options.sandbox.env, ...options.env },
  });

  const waits = createWaits();
  const runChecks = waits.changed;
  const chunks: string[] = [];
  let exit: ClaudeExit | undefined;
  let resolveExit: (value: ClaudeExit) => void = () => {};
  const exited = new Promise<ClaudeExit>((resolve) => {
    resolveExit = resolve;
  });
  pty.onData((data) => {
    chunks.push(data);
    terminal.write(data, runChecks);
  });
  let exiting = false;
  pty.onExit((event) => {
    // bun-pty fires a second, synthetic exit when stop() releases its handle.
    if (exiting) return;
    exiting = true;
    const info: ClaudeExit = { exitCode: event.exitCode, ...(event.signal !== undefined ? { signal: event.signal } : {}) };
    // Let the emulator parse the last bytes before waiters learn about the exit.
    terminal.write('', () => {
      exit = info;
      resolveExit(info);
      runChecks();
    });
  });

  const screenText = (): string => {
    const top = terminal.buffer.active.viewportY;
    return rowsText(terminal, top, top + terminal.rows);
  };
  const bufferText = (): string => rowsText(terminal, 0, terminal.buffer.active.length);

  const waitForScreen: ClaudePty['waitForScreen'] = (matcher, waitOptions = {}) => {
    const timeoutMs = waitOptions.timeoutMs ?? DEFAULT_SCREEN_TIMEOUT_MS;
    const failure = (why: string) => `claude pty: ${why} waiting for ${String(matcher)}; screen:\n${screenText()}`;
    return waits.waitFor({
      probe: () => {
        const screen = screenText();
        return matches(matcher, screen) && screen;
      },
      failed: () => (exit ? failure(`claude exited (${JSON.stringify(exit)})`) : null),
      timeoutMs,
      timedOut: () => failure(`timed out after ${timeoutMs} ms`),
    });
  };

  // bun-pty's own kill() reports exit code 0 at once while the child may live on (it ignores a
  // trapped SIGTERM), so signal the pid ourselves and let the read loop report the real exit.
  const kill = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    if (exiting) return;
    try {
      process.kill(pty.pid, signal);
    } catch {
      // Already gone; the read loop reports the exit.
    }
  };

  return {
    pid: pty.pid,
    sandbox: options.sandbox,
    terminal,
    screenText,
    bufferText,
    output: () => chunks.join(''),
    waitForScreen,
    waitForReady: (waitOptions) => waitForScreen(READY_PATTERN, waitOptions),
    write: (data) => pty.write(data),
    async submit(text, submitOptions = {}) {
      pty.write(text);
      // The box wraps long input, so compare without whitespace, and only the end of the text.
      const squash = (value: string): string => value.replace(/\s+/g, '');
      const tail = squash(text).slice(-20);
      await waitForScreen((screen) => squash(inputBoxText(screen) ?? '').endsWith(tail), submitOptions);
      pty.write('\r');
    },
    exited,
    kill,
    async stop() {
      kill();
      const escalate = setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS);
      await exited;
      clearTimeout(escalate);
      pty.kill(); // releases bun-pty's handle
      terminal.dispose();
    },
  };
}
