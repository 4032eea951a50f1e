// codex.ts (harness): run the pinned, real Codex CLI offline in a private sandbox: a temp CODEX_HOME
// whose config.toml points Codex at the fake Responses API (tests/fixtures/fake-openai) through a
// custom model provider, trusts the project dir and turns off update checks; a temp HOME and TMPDIR;
// and a project dir (a git repository, as a developer's would be). AGENT-CLIS.md has the recipe.
//
// Invariant: nothing escapes the sandbox: the env is process.env minus every CODEX*/OPENAI* variable,
// plus the sandbox's own; stop() removes every dir the sandbox created.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configNetwork, managedNetworkCodex } from './codex-network.ts';
import type { TetherPty } from './desk.ts';

export const FAKE_OPENAI_KEY = 'sk-tether-fake-openai-key';
/** The model the fake provider serves (Codex only warns that it has no metadata for it). */
export const FAKE_MODEL = 'gpt-fake';

/** Codex idle: its input row (`›`, then a placeholder or typed text) with only a blank row and the
 *  footer under it, and no busy line ("esc to interrupt") anywhere on screen. The blank row holds
 *  spaces. */
export const CODEX_READY = /^(?![^]*esc to interrupt)[^]*^›[ \u00a0][^\n]*\n(?:[ \u00a0]*\n)?[ \u00a0]{2}\S/m;

/** Codex has started its session: the footer under the input names the model and the session's
 *  directory ("gpt-fake default · /path"), drawn once the session is configured. The input box is
 *  drawn earlier; keys pasted in the moments before this line appeared were lost 5 times in about
 *  300 e2e runs (the runner had written them to the PTY; Codex never drew them). A desk types after
 *  it. */
export function codexStarted(cwd: string): RegExp {
  return new RegExp(`^ {2}\\S.* · ${cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm');
}

export type CodexSandbox = {
  codexHome: string;
  cwd: string;
  home: string;
  env: Record<string, string>;
  /** The codex to run: the pin, or with `managedNetwork` a wrapper of it (codex-network.ts). */
  bin: string;
  /** Rollout transcripts written so far. */
  transcripts(): string[];
  stop(): void;
};

function supportedCodex(): { floor: string; current: string } {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return JSON.parse(readFileSync(join(root, 'cli', 'src', 'agents', 'codex', 'supported-versions.json'), 'utf8'));
}

/** The pinned Codex: `TETHER_CODEX_BIN`, else the current pin installed by scripts/bootstrap.mjs into .tools/. */
export function codexBin(): string {
  const fromEnv = process.env.TETHER_CODEX_BIN;
  if (fromEnv) return fromEnv;
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return join(root, '.tools', `codex-${supportedCodex().current}`, 'node_modules', '.bin', 'codex');
}

export function createCodexSandbox(options: { fakeApiUrl: string; cwd?: string; approvalPolicy?: string; /** `model_context_window`: the window Codex states (else its fallback for an unknown model). */ contextWindow?: number; /** Commands reach the network only through Codex's managed proxy, which asks (codex-network.ts). */ managedNetwork?: boolean }): CodexSandbox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tether-codex-')));
  const codexHome = join(root, 'codex-home');
  const home = join(root, 'home');
  const tmp = join(root, 'tmp');
  for (const dir of [codexHome, home, tmp]) mkdirSync(dir);
  const cwd = options.cwd ? realpathSync(options.cwd) : join(root, 'project');
  if (!options.cwd) mkdirSync(cwd);
  const network = options.managedNetwork ? configNetwork() : null;
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      ...(network?.top ?? []),
      `model = "${FAKE_MODEL}"`,
      'model_provider = "fake"',
      `approval_policy = "${options.approvalPolicy ?? 'on-request'}"`,
      ...(network ? [] : ['sandbox_mode = "workspace-write"']),
      'check_for_update_on_startup = false',
      ...(options.contextWindow ? [`model_context_window = ${options.contextWindow}`] : []),
      '[model_providers.fake]',
      'name = "Fake"',
      `base_url = "${options.fakeApiUrl}"`,
      'wire_api = "responses"',
      'env_key = "FAKE_OPENAI_KEY"',
      `[projects.${JSON.stringify(cwd)}]`,
      'trust_level = "trusted"',
      ...(network?.tables ?? []),
      '',
    ].join('\n'),
  );
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^(CODEX|OPENAI)/.test(key)) continue;
    env[key] = value;
  }
  Object.assign(env, {
    HOME: home,
    TMPDIR: tmp,
    CODEX_HOME: codexHome,
    FAKE_OPENAI_KEY,
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
  });
  const sessions = join(codexHome, 'sessions');
  const walk = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.jsonl') ? [join(dir, e.name)] : [])) : [];
  const bin = options.managedNetwork ? managedNetworkCodex({ root, codex: codexBin() }) : codexBin();
  return { codexHome, cwd, home, env, bin, transcripts: () => walk(sessions), stop: () => rmSync(root, { recursive: true, force: true }) };
}

/** Codex's footer (its last rows, not the history above, which keeps "…for Plan mode." after a
 *  switch back) says Plan mode. */
const FOOTER_SAYS_PLAN = /Plan mode[^\n]*(?:\n[^\n]*)?\s*$/;

/** Codex's trace of taking a Shift+Tab: its footer, or the history line a mode change draws. */
const MODE_KEY_TAKEN = /Plan mode/;

/** Shift+Tab at the desk into Plan mode, as a person does it: press, look, and press again only when
 *  the screen shows the first press was never taken. Only once the session is idle on the hub (its
 *  SessionStart hook ran): a key pressed while Codex still starts its session is undone by the start
 *  (seen: "Model changed … for Plan mode." drawn above Codex's header, then the footer back in
 *  default). A key can also be lost after that, with nothing of tether in its path: in a loaded
 *  rehearsal the key was written after codexStarted, and 15 s later the footer still said default and
 *  no mode line was drawn; codex-join's desk TUI (Codex on the harness's own terminal) lost keys the
 *  same way. Never a second press while any trace of the first is on screen (that would cycle on). */
export async function enterPlanModeAtDesk(runner: Pick<TetherPty, 'write' | 'waitForScreen'>): Promise<void> {
  runner.write('\x1b[Z');
  const taken = await runner.waitForScreen(MODE_KEY_TAKEN, { timeoutMs: 8_000 }).then(() => true, () => false);
  if (!taken) runner.write('\x1b[Z');
  await runner.waitForScreen(FOOTER_SAYS_PLAN);
}
