// home.ts: how one Gemini launch gets tether's hooks without touching the user's settings.
//
// Gemini reads hooks from settings.json layers (system, system defaults, user, workspace; `hooks.*`
// arrays concatenate across them). tether writes none of the user's files:
//   - the system layers (GEMINI_CLI_SYSTEM_SETTINGS_PATH / _DEFAULTS_PATH) would do, but 0.61.0 skips
//     a system file unless root owns it and every directory above it ("Security Warning: Skipping
//     system defaults file"), so a normal user cannot use them;
//   - GEMINI_CLI_HOME moves the directory Gemini takes for `~` (its `.gemini` lives there). tether makes
//     a private one per launch whose `.gemini/settings.json` is the user's own settings plus tether's
//     hooks, and whose every other entry is a symlink to the user's `~/.gemini` (credentials, sessions
//     under tmp/, projects.json, history, policies, extensions…), so Gemini's state stays the
//     user's: a session written here is `gemini --resume`d later without tether.
// An entry Gemini made during the session (first use: projects.json, installation_id) moves to the
// user's dir when the launch ends. What a session changes in its settings (`/settings`, a theme) lands in the copy and is not kept.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export type GeminiHome = { dir: string; remove(): void };

/** Entries Gemini creates on first use: made in the user's dir first so they are shared, not lost. */
const SHARED_DIRS = ['tmp', 'history'];

/** The user's `.gemini` directory, as Gemini finds it. */
export function userGeminiDir(env: NodeJS.ProcessEnv): string {
  return join(env.GEMINI_CLI_HOME || env.HOME || homedir(), '.gemini');
}

function readSettings(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    // Gemini's settings take comments; a file tether cannot read as JSON is kept out of the copy's
    // merge but the launch goes on (Gemini would report it the same way).
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8').replace(/^\s*\/\/.*$/gm, ''));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The user's settings with `hooks` added (each event's array after the user's own). */
export function withHooks(settings: Record<string, unknown>, hooks: Record<string, unknown[]>): Record<string, unknown> {
  const own = settings.hooks && typeof settings.hooks === 'object' && !Array.isArray(settings.hooks) ? (settings.hooks as Record<string, unknown>) : {};
  const merged: Record<string, unknown> = { ...own };
  for (const [event, entries] of Object.entries(hooks)) merged[event] = [...(Array.isArray(own[event]) ? own[event] : []), ...entries];
  return { ...settings, hooks: merged };
}

/** The user's `tools.allowed` names (settings), read for the approval gate. */
export function userAllowedTools(env: NodeJS.ProcessEnv): string[] {
  const tools = readSettings(join(userGeminiDir(env), 'settings.json')).tools as { allowed?: unknown } | undefined;
  return Array.isArray(tools?.allowed) ? tools.allowed.filter((t): t is string => typeof t === 'string') : [];
}

/** A private GEMINI_CLI_HOME (0700) for one launch: settings.json with `hooks`, the rest linked. */
export function createGeminiHome(o: { env: NodeJS.ProcessEnv; hooks: Record<string, unknown[]> }): GeminiHome {
  const user = userGeminiDir(o.env);
  mkdirSync(user, { recursive: true });
  for (const name of SHARED_DIRS) mkdirSync(join(user, name), { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'tether-gemini-'));
  chmodSync(dir, 0o700);
  const own = join(dir, '.gemini');
  mkdirSync(own, { mode: 0o700 });
  for (const name of readdirSync(user)) if (name !== 'settings.json') symlinkSync(join(user, name), join(own, name));
  const settings = withHooks(readSettings(join(user, 'settings.json')), o.hooks);
  writeFileSync(join(own, 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  return { dir, remove: () => keepNewEntries({ own, user, dir }) };
}

/** Moves what Gemini created in the private dir (not a link, not the settings copy, not in the
 *  user's dir yet) to the user's dir, then removes the private dir. */
function keepNewEntries(o: { own: string; user: string; dir: string }): void {
  try {
    for (const name of readdirSync(o.own)) {
      if (name === 'settings.json' || existsSync(join(o.user, name)) || lstatSync(join(o.own, name)).isSymbolicLink()) continue;
      renameSync(join(o.own, name), join(o.user, name));
    }
  } catch {
    // Best effort: the session's own state is in the linked dirs already.
  }
  rmSync(o.dir, { recursive: true, force: true });
}
