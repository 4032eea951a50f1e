// opencode.ts (harness): run the pinned, real opencode offline in a private sandbox: a temp HOME with
// its own XDG folders (opencode keeps config, data, cache and state there), a config file that adds
// one custom provider (`@ai-sdk/openai-compatible`, bundled in opencode) pointed at the fake chat
// completions API (tests/fixtures/fake-chat-completions), its two models, and `ask` for the shell and
// edits (opencode's default is to allow them); variables that turn off its model catalogue fetch
// (models.dev), auto-update, sharing, default plugins, LSP downloads and reading ~/.claude; a project
// dir (a git repository). docs/decisions/agents.md ("opencode") has what was verified.
//
// Invariant: nothing escapes the sandbox: the env is process.env minus every OPENCODE* variable, plus
// the sandbox's own; stop() removes every dir the sandbox created, and fails if any process still
// runs in it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { FILE_CHANGES_TOOL_NAME, type PendingRequest } from '@tether/shared';
import { reapLeftovers } from './leftovers.ts';

/** The provider and models the sandbox configures (`provider/model`, as opencode names them). */
export const FAKE_OPENCODE_PROVIDER = 'fake';
export const FAKE_OPENCODE_MODEL = `${FAKE_OPENCODE_PROVIDER}/fake-model`;
export const FAKE_OPENCODE_MODEL_2 = `${FAKE_OPENCODE_PROVIDER}/fake-model-2`;

export type OpencodeSandbox = {
  cwd: string;
  home: string;
  env: Record<string, string>;
  stop(): Promise<void>;
};

const LEFTOVER_GRACE_MS = 3_000;

function supportedOpencode(): { floor: string; current: string } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return JSON.parse(readFileSync(join(root, 'cli', 'src', 'agents', 'opencode', 'supported-versions.json'), 'utf8'));
}

/** The pinned opencode: `TETHER_OPENCODE_BIN`, else the current pin installed by scripts/bootstrap.mjs into .tools/. */
export function opencodeBin(): string {
  const fromEnv = process.env.TETHER_OPENCODE_BIN;
  if (fromEnv) return fromEnv;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return join(root, '.tools', `opencode-${supportedOpencode().current}`, 'node_modules', '.bin', 'opencode');
}

/** Variables that keep opencode off the network and out of the person's other tools. */
const OFFLINE_ENV = {
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  OPENCODE_DISABLE_CLAUDE_CODE: '1',
};

export function createOpencodeSandbox(options: { fakeApiUrl: string }): OpencodeSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tether-opencode-')));
  const home = join(root, 'home');
  const xdg = { XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), XDG_STATE_HOME: join(home, '.local', 'state') };
  const cwd = join(root, 'project');
  for (const dir of [home, cwd, join(root, 'tmp'), ...Object.values(xdg), join(xdg.XDG_CONFIG_HOME, 'opencode')]) mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd });
  const config = {
    $schema: 'https://opencode.ai/config.json',
    autoupdate: false,
    share: 'disabled',
    model: FAKE_OPENCODE_MODEL,
    small_model: FAKE_OPENCODE_MODEL,
    permission: { bash: 'ask', edit: 'ask' },
    provider: {
      [FAKE_OPENCODE_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Fake',
        options: { baseURL: options.fakeApiUrl, apiKey: 'tether-fake-key' },
        models: { 'fake-model': { name: 'Fake Model', tool_call: true }, 'fake-model-2': { name: 'Fake Model 2', tool_call: true } },
      },
    },
  };
  writeFileSync(join(xdg.XDG_CONFIG_HOME, 'opencode', 'opencode.json'), JSON.stringify(config, null, 2));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^OPENCODE/.test(key) || /^XDG_/.test(key)) continue;
    env[key] = value;
  }
  Object.assign(env, { HOME: home, TMPDIR: join(root, 'tmp'), ...xdg, ...OFFLINE_ENV, LANG: 'C.UTF-8' });
  const stop = async () => {
    const left = await reapLeftovers(root, { graceMs: LEFTOVER_GRACE_MS });
    rmSync(root, { recursive: true, force: true });
    if (left.length > 0) throw new Error(`processes outlived the test in its opencode sandbox (killed now): ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
  };
  return { cwd, home, env, stop };
}

/** The phone's request for opencode's write of `file`, once asked (its files-and-diffs card). */
export const writeAsked = (requests: readonly PendingRequest[], file: string) => requests.find((r) => r.toolName === FILE_CHANGES_TOOL_NAME && JSON.stringify(r.toolInput).includes(file));

/** What that card holds for a new file at `path` whose text has `line`. */
export const newFileCard = (path: string, line: string) => ({ changes: [{ path, kind: 'add', movePath: null, diff: expect.stringContaining(`+${line}`) }] });
