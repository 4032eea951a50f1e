// endpoint-file.ts: how an agent's hook process finds its runner. The runner's loopback hook port and
// per-session secret go into a private file (dir 0700, file 0600); the hook command an agent runs
// names that file in TETHER_HOOK_FILE and runs `tether hook <event>` (client.ts). Each agent's room
// decides how it registers that command (claude: a --settings file; Codex: -c overrides).
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tetherCommand } from '../config/self-command.ts';
import { HOOK_FILE_ENV, type HookEndpoint, type HookEventArg } from './events.ts';

export type HookEndpointFile = { dir: string; endpointPath: string; remove(): void };

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The shell command an agent runs for `event`: `TETHER_HOOK_FILE=<file> <tether> hook <event>`. */
export function hookCommand(options: { event: HookEventArg; endpointPath: string; tether?: string[] }): string {
  const tether = (options.tether ?? tetherCommand()).map(shellQuote).join(' ');
  return `${HOOK_FILE_ENV}=${shellQuote(options.endpointPath)} ${tether} hook ${options.event}`;
}

/** A private dir (0700) holding the endpoint file (0600); remove() deletes both. */
export function writeHookEndpoint(options: { endpoint: HookEndpoint; prefix?: string }): HookEndpointFile {
  const dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'tether-hooks-'));
  chmodSync(dir, 0o700);
  const endpointPath = join(dir, 'endpoint.json');
  writeFileSync(endpointPath, JSON.stringify(options.endpoint), { mode: 0o600 });
  return { dir, endpointPath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
