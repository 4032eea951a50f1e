// gemini.ts (harness): run the pinned, real Gemini CLI offline in a private sandbox: a temp HOME whose
// `~/.gemini/settings.json` picks API-key auth, turns off folder trust, telemetry, update checks and the
// IDE nudge; GOOGLE_GEMINI_BASE_URL pointing at the fake Gemini API (tests/fixtures/fake-gemini) with a
// fake GEMINI_API_KEY; a temp TMPDIR; and a project dir (a git repository, as a developer's would be).
// AGENT-CLIS.md has the recipe.
//
// Invariant: nothing escapes the sandbox: the env is process.env minus every GEMINI*/GOOGLE* variable,
// plus the sandbox's own; stop() removes every dir the sandbox created, and fails if any process
// still runs in it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reapLeftovers } from './leftovers.ts';

export const FAKE_GEMINI_KEY = 'tether-fake-gemini-key';
/** The model tests name with -m: with a model named, Gemini makes no routing side call. */
export const FAKE_GEMINI_MODEL = 'gemini-2.5-flash';

/** Gemini idle: a rule, then its input row (a one-character mark, then the placeholder after three
 *  spaces), and no spinner row above the rule. */
export const GEMINI_READY = /^(?![^]*[\u2800-\u28ff] [^\n]*\(esc to cancel)[^]*─{20,}\n(?:.*\n){0,2} ?\S {3}\S/m;
/** Gemini's own tool-permission dialog, by structure: the first numbered option under its `●`. */
export const GEMINI_DIALOG = /● 1\. /;

export type GeminiSandbox = {
  cwd: string;
  home: string;
  env: Record<string, string>;
  /** Session files written so far (`~/.gemini/tmp/<project>/chats/*.jsonl`). */
  transcripts(): string[];
  /** Removes the sandbox; fails if a process still runs in it (a Gemini that outlived its runner),
   *  after killing it, so a leak fails its own test and never loads the next ones. */
  stop(): Promise<void>;
};

/** After the runner's exit, how long Gemini's own processes may take to be gone. */
const LEFTOVER_GRACE_MS = 3_000;

function supportedGemini(): { floor: string; current: string } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return JSON.parse(readFileSync(join(root, 'cli', 'src', 'agents', 'gemini', 'supported-versions.json'), 'utf8'));
}

/** The pinned Gemini CLI: `TETHER_GEMINI_BIN`, else the current pin installed by scripts/bootstrap.mjs into .tools/. */
export function geminiBin(): string {
  const fromEnv = process.env.TETHER_GEMINI_BIN;
  if (fromEnv) return fromEnv;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return join(root, '.tools', `gemini-${supportedGemini().current}`, 'node_modules', '.bin', 'gemini');
}

export function createGeminiSandbox(options: { fakeApiUrl: string; settings?: Record<string, unknown> }): GeminiSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tether-gemini-')));
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  const cwd = join(root, 'project');
  for (const dir of [home, tmp, cwd, join(home, '.gemini')]) mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd });
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    ide: { enabled: false, hasSeenNudge: true },
    ...options.settings,
  };
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(GEMINI|GOOGLE)/.test(key)) continue;
    env[key] = value;
  }
  Object.assign(env, { HOME: home, TMPDIR: tmp, GOOGLE_GEMINI_BASE_URL: options.fakeApiUrl, GEMINI_API_KEY: FAKE_GEMINI_KEY, TERM: 'xterm-256color', LANG: 'C.UTF-8' });
  const chats = join(home, '.gemini', 'tmp');
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : [])) : [];
  const stop = async () => {
    const left = await reapLeftovers(root, { graceMs: LEFTOVER_GRACE_MS });
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) throw new Error(`processes outlived the test in its Gemini sandbox (killed now): ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
  };
  return { cwd, home, env, transcripts: () => walk(chats), stop };
}
