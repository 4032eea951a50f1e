// settings.ts: the `--settings` file that makes claude call `tether hook <event>`, and the private
// directory it lives in (with the 0600 endpoint file holding the hook server's port and secret).
//
//   claude ──/bin/sh -c "TETHER_HOOK_FILE=… <bun> <cli/src/main.ts> hook pre-tool-use"──► hook client
//          ──HTTP 127.0.0.1:<port>, secret header──► runner's hook server
//
// The command is absolute (the running Bun and this checkout's main.ts), so it works without
// `tether` on PATH. The secret is in a file, not on the command line, so `ps` never shows it.
// Invariant: nothing is written outside the private dir; remove() deletes all of it.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HOOK_EVENTS, HOOK_FILE_ENV, type HookEndpoint, type HookEventArg } from './events.ts';

/** PreToolUse waits for a person (phone or desk) to decide; claude's default (600 s) would deny a
 *  request the user answers after ten minutes away. One day: the hook itself never hangs (it fails
 *  closed when the runner goes away), so this only bounds a human's thinking time. */
const PRE_TOOL_USE_TIMEOUT_S = 86_400;
/** The other hooks only post a fact to the loopback runner; 30 s is generous for that. */
const FACT_HOOK_TIMEOUT_S = 30;

export type HookSettingsDir = {
  dir: string;
  settingsPath: string;
  endpointPath: string;
  remove(): void;
};

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The absolute `tether` entry point of this checkout (cli/src/main.ts). */
export function defaultTetherEntry(): string {
  return resolve(import.meta.dirname, '..', 'main.ts');
}

export function hookCommand(options: { event: HookEventArg; endpointPath: string; bunPath?: string; entry?: string }): string {
  const bun = options.bunPath ?? process.execPath;
  const entry = options.entry ?? defaultTetherEntry();
  return `${HOOK_FILE_ENV}=${shellQuote(options.endpointPath)} ${shellQuote(bun)} ${shellQuote(entry)} hook ${options.event}`;
}

export function buildHookSettings(options: { endpointPath: string; bunPath?: string; entry?: string }): Record<string, unknown> {
  const hooks: Record<string, unknown[]> = {};
  for (const [arg, name] of Object.entries(HOOK_EVENTS) as Array<[HookEventArg, string]>) {
    const command = hookCommand({ ...options, event: arg });
    const timeout = arg === 'pre-tool-use' ? PRE_TOOL_USE_TIMEOUT_S : FACT_HOOK_TIMEOUT_S;
    const entry = { type: 'command', command, timeout };
    hooks[name] = arg === 'pre-tool-use' || arg === 'post-tool-use' ? [{ matcher: '*', hooks: [entry] }] : [{ hooks: [entry] }];
  }
  return { hooks };
}

/** Creates the private dir (0700) with settings.json and the endpoint file (0600). */
export function writeHookSettings(options: { endpoint: HookEndpoint; bunPath?: string; entry?: string }): HookSettingsDir {
  const dir = mkdtempSync(join(tmpdir(), 'tether-hooks-'));
  chmodSync(dir, 0o700);
  const endpointPath = join(dir, 'endpoint.json');
  writeFileSync(endpointPath, JSON.stringify(options.endpoint), { mode: 0o600 });
  const settingsPath = join(dir, 'settings.json');
  const settings = buildHookSettings({ endpointPath, bunPath: options.bunPath, entry: options.entry });
  writeFileSync(settingsPath, JSON.stringify(settings, null, 2), { mode: 0o600 });
  return {
    dir,
    settingsPath,
    endpointPath,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
