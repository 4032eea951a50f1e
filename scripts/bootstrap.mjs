// bootstrap.mjs: makes a fresh clone runnable with only Node 20 + npm. Finds Bun (PATH, or a
// project-local copy under .tools/), installs it from the npm registry when missing, installs the
// workspace dependencies from the lockfile, and builds the web app when its sources are newer. Each
// of those prints one line when it runs (step.mjs: its own output only if it fails). The pinned
// agents for the tests go into .tools/ the same way (installPinned: npm-env.mjs says what of the
// outer npm's config a nested install must not see).
// Plain Node on purpose: it runs before Bun exists.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installEnv } from './npm-env.mjs';
import { step } from './step.mjs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Pinned so every machine (and CI) runs the Bun the lockfile was made with. */
const BUN_VERSION = '1.4.5';
const LOCAL_BUN = join(ROOT, '.tools', 'node_modules', '.bin', 'bun');

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw new Error(`${cmd}: ${result.error.message}`);
  return result.status ?? 1;
}

/** `npm install` of one package into a prefix of its own, as one step. `allowScripts`: the packages
 *  (name@version) whose install scripts run, written as the prefix's own package.json policy, the
 *  place npm 11 wants it for a project-scoped install: it then holds whatever the person's npm config
 *  lists (a list there that leaves out claude would otherwise skip the postinstall that puts its
 *  native binary in place, once npm skips what no policy covers). */
export function installPinned(options) {
  const { what, prefix, spec, allowScripts } = options;
  mkdirSync(prefix, { recursive: true });
  const policy = Object.fromEntries(allowScripts.map((name) => [name, true]));
  writeFileSync(join(prefix, 'package.json'), `${JSON.stringify({ private: true, allowScripts: policy }, null, 2)}\n`);
  step({ what, cmd: 'npm', args: ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--prefix', prefix, spec], env: installEnv(process.env) });
}

function bunOnPath() {
  const r = spawnSync('bun', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Returns the path of a working bun binary, installing one under .tools/ if needed. */
export function ensureBun() {
  // Child processes (tests spawn `bun`, `tether`, `claude` by name) find the same tools we use.
  process.env.PATH = [dirname(LOCAL_BUN), join(ROOT, 'node_modules', '.bin'), process.env.PATH].join(':');
  if (existsSync(LOCAL_BUN)) return LOCAL_BUN;
  const onPath = bunOnPath();
  if (onPath) return 'bun';
  installPinned({ what: `installing bun ${BUN_VERSION} from the npm registry into .tools/`, prefix: join(ROOT, '.tools'), spec: `bun@${BUN_VERSION}`, allowScripts: [`bun@${BUN_VERSION}`] });
  if (!existsSync(LOCAL_BUN)) {
    console.error('tether: bun was installed but .tools/node_modules/.bin/bun is missing');
    process.exit(1);
  }
  return LOCAL_BUN;
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

export function ensureDeps(bun) {
  const marker = join(ROOT, 'node_modules', '.bun-installed');
  const lock = join(ROOT, 'bun.lock');
  const fresh = existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs;
  if (fresh) return;
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  step({ what: 'installing dependencies (bun install)', cmd: bun, args: ['install', ...frozen], cwd: ROOT });
  writeFileSync(marker, '');
}

export function ensureWebBuild(bun) {
  const index = join(ROOT, 'web', 'dist', 'index.html');
  const sources = Math.max(newestMtime(join(ROOT, 'web')), newestMtime(join(ROOT, 'shared', 'src')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  step({ what: 'building the web app', cmd: bun, args: ['run', '--cwd', 'web', 'build'], cwd: ROOT });
}

/** Every test file that starts the real claude (TETHER_CLAUDE_BIN picks which one). */
export const REAL_CLAUDE_SUITES = [
  'tests/e2e',
  'tests/browser/real-claude.test.ts',
  'tests/browser/dialogs.test.ts',
  'tests/browser/new-session.test.ts',
  'tests/harness/claude.test.ts',
  'tests/fixtures/fake-anthropic/fake-anthropic.test.ts',
];

/** vitest arguments that leave out the suites among those whose subject is not claude, so they run
 *  once, against the current version: the install tests build and install tether (~1 min) and only
 *  use claude to prove a session works; the hub's own suites (several hubs, its database, port,
 *  memory, auth, persistence, replay, share links, push, shells) run no claude or use it only as a
 *  session to carry (~2 min of the floor pass). */
export const REAL_CLAUDE_EXCLUDES = [
  'tests/e2e/install-*.test.ts',
  'tests/e2e/multi-hub*.test.ts',
  'tests/e2e/hub-*.test.ts',
  'tests/e2e/auth.test.ts',
  'tests/e2e/persistence.test.ts',
  'tests/e2e/terminal-replay.test.ts',
  'tests/e2e/terminal-share.test.ts',
  'tests/e2e/terminal-final-screen.test.ts',
  'tests/e2e/web-push.test.ts',
  'tests/e2e/daemon-shell.test.ts',
  // No claude at all, and it runs in a network namespace of its own (scripts/test.mjs).
  'tests/e2e/relay-*.test.ts',
].flatMap((glob) => ['--exclude', glob]);

/** The claude versions tether is tested with (the one pin, shared with `tether doctor`). */
export function supportedClaude() {
  return JSON.parse(readFileSync(join(ROOT, 'cli', 'src', 'agents', 'claude', 'supported-versions.json'), 'utf8'));
}

function claudeVersionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', env: { ...process.env, CLAUDECODE: '' } });
  return r.status === 0 ? (/\d+\.\d+\.\d+/.exec(r.stdout) ?? [null])[0] : null;
}

/** Installs claude `version` into .tools/claude-<version>/ with npm (which runs its postinstall, so
 *  the native binary is in place) unless it is there already; returns its binary. The current
 *  version is the tests' devDependency (node_modules/.bin/claude); older ones live here. */
export function ensureClaude(version) {
  const prefix = join(ROOT, '.tools', `claude-${version}`);
  const bin = join(prefix, 'node_modules', '.bin', 'claude');
  if (existsSync(bin) && claudeVersionOf(bin) === version) return bin;
  installPinned({ what: `installing claude ${version} from the npm registry into .tools/`, prefix, spec: `@anthropic-ai/claude-code@${version}`, allowScripts: [`@anthropic-ai/claude-code@${version}`] });
  const got = claudeVersionOf(bin);
  if (got !== version) {
    console.error(`tether: claude ${version} was installed but ${bin} reports ${got ?? 'nothing'}`);
    process.exit(1);
  }
  return bin;
}

/** Every test file that starts the real Codex (TETHER_CODEX_BIN picks which one): the suites whose
 *  subject is Codex, runner-cli's doctor, which reads the Codex it is given and calls a newer one
 *  newer, and the journey every agent walks (its Codex row: TETHER_JOURNEY_AGENTS). vitest takes
 *  these as path filters, so `tests/e2e/codex-` is every codex-*.test.ts. */
export const REAL_CODEX_SUITES = ['tests/e2e/codex-', 'tests/browser/codex.test.ts', 'tests/e2e/runner-cli.test.ts', 'tests/e2e/agent-journey.test.ts'];

/** vitest arguments that leave the suites whose subject is Codex out of `claude:check`: they learn
 *  nothing about a new claude (codex:check runs them against a new Codex), and left in they would
 *  need a Codex on a checkout that has none. The Codex pin is still installed for claude:check,
 *  because runner-cli's doctor reads both agents. */
export const CODEX_SUBJECT_EXCLUDES = ['tests/e2e/codex-*.test.ts', 'tests/browser/codex.test.ts'].flatMap((glob) => ['--exclude', glob]);

/** The Codex versions tether is tested with (cli/src/agents/codex/supported-versions.json). */
export function supportedCodex() {
  return JSON.parse(readFileSync(join(ROOT, 'cli', 'src', 'agents', 'codex', 'supported-versions.json'), 'utf8'));
}

/** `<bin> --version`'s first x.y.z (Codex, Gemini and opencode alike). */
function codexVersionOf(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (/\d+\.\d+\.\d+/.exec(r.stdout) ?? [null])[0] : null;
}

/** Installs Codex `version` into .tools/codex-<version>/ with npm (its launcher picks the platform's
 *  native package among its optional dependencies: ~400 MB, so only that one is fetched) unless it is
 *  there already; returns its binary. Both pins live here; tests find them through TETHER_CODEX_BIN. */
export function ensureCodex(version) {
  const prefix = join(ROOT, '.tools', `codex-${version}`);
  const bin = join(prefix, 'node_modules', '.bin', 'codex');
  if (existsSync(bin) && codexVersionOf(bin) === version) return bin;
  installPinned({ what: `installing codex ${version} from the npm registry into .tools/`, prefix, spec: `@openai/codex@${version}`, allowScripts: [`@openai/codex@${version}`] });
  const got = codexVersionOf(bin);
  if (got !== version) {
    console.error(`tether: codex ${version} was installed but ${bin} reports ${got ?? 'nothing'}`);
    process.exit(1);
  }
  return bin;
}

/** Every test file that starts the real Gemini CLI (TETHER_GEMINI_BIN picks which one; the journey's
 *  Gemini row: TETHER_JOURNEY_AGENTS). */
export const REAL_GEMINI_SUITES = ['tests/e2e/gemini-', 'tests/e2e/agent-journey.test.ts'];

/** vitest arguments that leave the suites whose subject is Gemini out of `claude:check` and
 *  `codex:check` (gemini:check runs them against a new Gemini). */
export const GEMINI_SUBJECT_EXCLUDES = ['tests/e2e/gemini-*.test.ts'].flatMap((glob) => ['--exclude', glob]);

/** The Gemini CLI versions tether is tested with (cli/src/agents/gemini/supported-versions.json). */
export function supportedGemini() {
  return JSON.parse(readFileSync(join(ROOT, 'cli', 'src', 'agents', 'gemini', 'supported-versions.json'), 'utf8'));
}

/** Installs Gemini CLI `version` into .tools/gemini-<version>/ with npm (a JS bundle, ~100 MB) unless
 *  it is there already; returns its binary. Both pins live here; tests find them through
 *  TETHER_GEMINI_BIN. `gemini --version` prints the bare version and works offline. */
export function ensureGemini(version) {
  const prefix = join(ROOT, '.tools', `gemini-${version}`);
  const bin = join(prefix, 'node_modules', '.bin', 'gemini');
  if (existsSync(bin) && codexVersionOf(bin) === version) return bin;
  installPinned({ what: `installing gemini ${version} from the npm registry into .tools/`, prefix, spec: `@google/gemini-cli@${version}`, allowScripts: [`@google/gemini-cli@${version}`] });
  const got = codexVersionOf(bin);
  if (got !== version) {
    console.error(`tether: gemini ${version} was installed but ${bin} reports ${got ?? 'nothing'}`);
    process.exit(1);
  }
  return bin;
}

/** Every test file that starts the real opencode (TETHER_OPENCODE_BIN picks which one): its suites and
 *  the journey every agent walks (its opencode row: TETHER_JOURNEY_AGENTS). */
export const REAL_OPENCODE_SUITES = ['tests/e2e/opencode-', 'tests/e2e/agent-journey.test.ts'];

/** vitest arguments that leave the suites whose subject is opencode out of `claude:check` (opencode:check
 *  runs them against a new opencode). */
export const OPENCODE_SUBJECT_EXCLUDES = ['tests/e2e/opencode-*.test.ts'].flatMap((glob) => ['--exclude', glob]);

/** The opencode versions tether is tested with (cli/src/agents/opencode/supported-versions.json). */
export function supportedOpencode() {
  return JSON.parse(readFileSync(join(ROOT, 'cli', 'src', 'agents', 'opencode', 'supported-versions.json'), 'utf8'));
}

/** Installs opencode `version` into .tools/opencode-<version>/ with npm (`opencode-ai`, whose
 *  postinstall links the platform's native binary from its optional dependencies: ~180 MB) unless it
 *  is there already; returns its binary. `opencode --version` prints the bare version, offline. */
export function ensureOpencode(version) {
  const prefix = join(ROOT, '.tools', `opencode-${version}`);
  const bin = join(prefix, 'node_modules', '.bin', 'opencode');
  if (existsSync(bin) && codexVersionOf(bin) === version) return bin;
  installPinned({ what: `installing opencode ${version} from the npm registry into .tools/`, prefix, spec: `opencode-ai@${version}`, allowScripts: [`opencode-ai@${version}`] });
  const got = codexVersionOf(bin);
  if (got !== version) {
    console.error(`tether: opencode ${version} was installed but ${bin} reports ${got ?? 'nothing'}`);
    process.exit(1);
  }
  return bin;
}
