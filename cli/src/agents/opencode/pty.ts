// pty.ts: what a PTY launch of opencode's TUI adds (Agent.installHooks): its own server told to
// listen on a loopback port tether chose, behind a fresh password in its environment, and the bridge
// that hears that server for the runner (bridge.ts). Refused where its TUI does not send the password
// to its own server (1.17.0 answers its own requests 401 and exits), with that reason.
import { LaunchArgsError, type HookInstall } from '../agent.ts';
import type { HookEndpoint } from '../../hooks/events.ts';
import { compareVersions } from '../version.ts';
import { startOpencodeBridge } from './bridge.ts';
import { servingTui } from './model-picker.ts';
import { PASSWORD_VARIABLE, USERNAME, USERNAME_VARIABLE, type OpencodeServer } from './server-link.ts';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/** The first opencode whose TUI tether has seen talk to its own server behind a password. */
export const PTY_FROM = '1.18.33';

/** Why this opencode's TUI cannot run under tether, or null. */
export function ptyRefusal(version: string | null): string | null {
  if (version === null) return 'its version could not be read, and only opencode from ' + PTY_FROM + ' runs its TUI under tether';
  if (compareVersions(version, PTY_FROM) >= 0) return null;
  return `opencode ${version}'s TUI does not send the server password to its own server (its requests are refused, 401): its TUI runs under tether from ${PTY_FROM}; start it headless`;
}

/** A loopback port free now (the TUI binds it a moment later) and a fresh password. */
function reserveServer(): OpencodeServer {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response(null, { status: 404 }) });
  const port = probe.port as number;
  probe.stop(true);
  return { url: `http://127.0.0.1:${port}`, port, password: randomBytes(24).toString('base64url') };
}

/** `opened`: the session its TUI is told to open (`--session <id>`), null for a new one. */
export function installOpencodePty(o: { version: string | null; endpoint: HookEndpoint; tetherHome: string; cwd: string; opened: string | null; log?: (line: string) => void }): HookInstall {
  const refused = ptyRefusal(o.version);
  if (refused) throw new LaunchArgsError(refused);
  const server = reserveServer();
  const bridge = startOpencodeBridge({ server, endpoint: o.endpoint, chatDir: join(o.tetherHome, 'acp-chat'), cwd: o.cwd, opened: o.opened, ...(o.log ? { log: o.log } : {}) });
  servingTui(server);
  return {
    args: ['--port', String(server.port), '--hostname', '127.0.0.1'],
    // Its server reads the password from here; a user name of the person's own would not match ours.
    env: { [PASSWORD_VARIABLE]: server.password, [USERNAME_VARIABLE]: USERNAME },
    remove: () => {
      servingTui(null);
      bridge.stop();
    },
  };
}
