// pty.ts: what a PTY launch of opencode's TUI adds (Agent.installHooks): an opencode server on a
// loopback port tether chose, behind a fresh password in the environment, and the bridge that hears
// that server for the runner (bridge.ts). Which server, by version (TUI_ROUTES, never by a string on
// screen): from 1.18.33 the TUI's own (`--port N --hostname 127.0.0.1`); at 1.17.0, whose TUI does not
// send the password to its own server (answered 401, it exits), `opencode serve` started by tether and
// `opencode attach` in the PTY (served.ts). Below the floor, or a version not read: refused.
import { LaunchArgsError, type HookInstall } from '../agent.ts';
import type { HookEndpoint } from '../../hooks/events.ts';
import { compareVersions } from '../version.ts';
import { startOpencodeBridge } from './bridge.ts';
import { startServedOpencode } from './served.ts';
import { servingTui } from './model-picker.ts';
import { PASSWORD_VARIABLE, USERNAME, USERNAME_VARIABLE, type OpencodeServer } from './server-link.ts';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

type TuiRoute = 'own-server' | 'attach';
/** How each opencode's TUI runs under tether, newest first: from `from` on, `route` (checked on both pins). */
const TUI_ROUTES: ReadonlyArray<{ from: string; route: TuiRoute }> = [
  // Its TUI sends OPENCODE_SERVER_PASSWORD to the server it runs itself.
  { from: '1.18.33', route: 'own-server' },
  // Its TUI does not; `opencode serve` and `opencode attach` both take it from the environment.
  { from: '1.17.0', route: 'attach' },
];
const OLDEST = TUI_ROUTES.at(-1)!.from;

/** What `opencode attach` cannot be told (it takes --session only): its TUI's own model and agent. */
const NOT_FOR_ATTACH = ['-m', '--model', '--agent'];

export function tuiRoute(version: string | null): TuiRoute | null {
  if (version === null) return null;
  return TUI_ROUTES.find((row) => compareVersions(version, row.from) >= 0)?.route ?? null;
}

/** Why this opencode's TUI cannot run under tether, or null. */
export function ptyRefusal(version: string | null): string | null {
  if (version === null) return `its version could not be read, and only opencode from ${OLDEST} runs its TUI under tether`;
  return tuiRoute(version) ? null : `opencode ${version}'s TUI is older than tether knows (its TUI runs under tether from ${OLDEST}); start it headless`;
}

/** A loopback port free now (the TUI binds it a moment later) and a fresh password. */
function reserveServer(): OpencodeServer {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(null, { status: 404 }) });
  const port = probe.port as number;
  probe.stop(true);
  return { url: `http://127.0.0.1:${port}`, port, password: randomBytes(24).toString('base64url') };
}

/** `opened`: the session its TUI is told to open (`--session <id>`), null for a new one. */
export function installOpencodePty(o: { version: string | null; bin: string; userArgs: readonly string[]; env: Record<string, string>; endpoint: HookEndpoint; tetherHome: string; cwd: string; opened: string | null; log?: (line: string) => void }): HookInstall {
  const refused = ptyRefusal(o.version);
  if (refused) throw new LaunchArgsError(refused);
  const route = tuiRoute(o.version)!;
  const named = o.userArgs.find((arg) => NOT_FOR_ATTACH.includes(arg.split('=')[0]!));
  if (route === 'attach' && named) throw new LaunchArgsError(`opencode ${o.version}'s TUI runs under tether as \`opencode attach\`, which takes --session only (not ${named}): choose its model and agent in its TUI, or start it headless`);
  const server = reserveServer();
  // Its server reads the password from here; a user name of the person's own would not match ours.
  const env = { [PASSWORD_VARIABLE]: server.password, [USERNAME_VARIABLE]: USERNAME };
  const served = route === 'attach' ? startServedOpencode({ bin: o.bin, server, env: { ...o.env, ...env }, cwd: o.cwd }) : null;
  const bridge = startOpencodeBridge({ server, endpoint: o.endpoint, chatDir: join(o.tetherHome, 'acp-chat'), cwd: o.cwd, opened: o.opened, ...(o.log ? { log: o.log } : {}) });
  servingTui(server);
  const remove = () => {
    servingTui(null);
    bridge.stop();
    served?.stop();
  };
  // Its prompts are heard only through the server's event stream: the session is ready once it is open.
  const hearing = bridge.hearing;
  if (!served) return { args: ['--port', String(server.port), '--hostname', '127.0.0.1'], env, remove, hearing };
  return { args: ['attach', server.url, '--dir', o.cwd], prepend: true, env, ready: served.ready, remove, hearing };
}
