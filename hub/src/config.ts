// config.ts: what a hub needs to start, with its defaults. TETHER_HOME holds the database and the
// signing secret; binding 127.0.0.1 by default keeps a fresh hub off the network.
import { join } from 'node:path';
import type { InstallKind } from '@tether/shared';
import pkg from '../package.json' with { type: 'json' };

export type HubConfig = {
  /** Interface to bind. Anything but loopback exposes the hub (the CLI warns: no TLS). */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** TETHER_HOME: <home>/hub.sqlite and <home>/hub-secret. */
  home: string;
  /** Directory of the built web app (web/dist), served at `/`. */
  webDist?: string;
  /** How often live sockets are re-checked for a revoked token or an expired web session
   *  (default 30 s; tests make it short). */
  revocationCheckMs?: number;
  /** A paired device's renewable web session (default 1 h, DEVICE_SESSION_TTL_MS; tests make it short). */
  deviceSessionMs?: number;
  /** A paired device unused this many days is signed out (default 30; `tether hub --device-idle-days`). */
  deviceIdleDays?: number;
  /** Two refreshes with one secret this close together are one phone's two tabs, not a replay
   *  (default 30 s, CONCURRENT_REFRESH_MS; tests make it short). */
  deviceRefreshGraceMs?: number;
  /** The most PTY output the hub keeps per terminal for replay (default 4 MiB, DEFAULT_TERMINAL_LOG_BYTES). */
  terminalLogBytes?: number;
  /** All live terminals' replay logs together (default 256 MiB, DEFAULT_TERMINAL_MEMORY_BYTES): each
   *  keeps budget ÷ live terminals, between 128 KiB and terminalLogBytes. `tether hub --terminal-memory`. */
  terminalMemoryBytes?: number;
  /** How long a runner whose socket vanished may take to come back before its pending approval
   *  requests are withdrawn (default 30 s, RUNNER_GONE_GRACE_MS; tests make it short). */
  runnerGoneGraceMs?: number;
  /** Schedules' clock and how often a hub looks for due runs (default the system's, every 5 s:
   *  SCHEDULE_TICK_MS); tests move a clock by hand. */
  schedules?: { clock?: import('./schedules/clock.ts').Clock; tickMs?: number };
  /** Sessions at their usage limit (hub/src/usage-limits): continue one at its reset when the person
   *  chose nothing for it and its namespace chose no default (default false: `tether hub
   *  --continue-at-reset`), and when (tests make the margins short). */
  limits?: { continueByDefault?: boolean; marginMs?: number; agentGraceMs?: number };
  /** Web shells (a login shell on a machine, from the web) for machines whose daemon allows them
   *  (`tether daemon --allow-shell`). Default false: `tether hub --enable-shell`. */
  shell?: boolean;
  /** PostgreSQL URL. With it, every hub on the same database is one cluster behind one URL:
   *  broadcasts span them (socket.io's PostgreSQL adapter) and they share their secrets. */
  databaseUrl?: string;
  /** How the other hubs of the cluster reach this one directly (the hub-to-hub terminal link);
   *  default this hub's own URL, which is right when they share a host or a private network. */
  clusterUrl?: string;
  /** Behind a load balancer or reverse proxy every request comes from the proxy's address; with
   *  this the client's address is the last `X-Forwarded-For` hop (the one the proxy appended), for
   *  the login rate limit. Only when every request passes through such a proxy. */
  trustProxy?: boolean;
  /** Browser origins allowed to open sockets besides the hub's own (`--allowed-origin`, also
   *  TETHER_ALLOWED_ORIGINS): a web app served from another host. Clients without an Origin (CLI,
   *  daemon, other hubs) are not browsers and always may. */
  allowedOrigins?: string[];
  /** Development only (`--dev-push-endpoints`): push endpoints may be plain http and on loopback or
   *  private addresses (the test suite's local push service). Off: https and public hosts only. */
  devPushEndpoints?: boolean;
  /** The https URL a phone opens (`--public-url`, the Tailscale name or the relay name): the hub
   *  behind a reverse proxy or a tunnel that ends TLS. Its host name is served (Host allowlist) and
   *  its origin may open sockets. */
  publicUrl?: string;
  /** Host names (or IP literals) this hub answers besides the loopback names and `publicUrl`'s:
   *  the LAN address it printed, `--allowed-host`, the Tailscale name. Any other Host gets 421
   *  (DNS rebinding). */
  allowedHosts?: string[];
  /** Maps the address a connection came from to the client's real one, or null to keep it:
   *  `tether hub --relay` dials the hub from a loopback address of its own per relayed client
   *  (cli/src/relay-link/), whose real address arrived in the relay's PROXY header. */
  peerAddress?: (address: string) => string | null;
  /** An OpenAI-compatible transcription endpoint for dictation recorded on the phone
   *  (TETHER_TRANSCRIPTION_URL, _KEY, _MODEL; transcription/transcription.ts). Absent: the phone
   *  offers only the browser's own speech recognition. */
  transcription?: { baseUrl: string; apiKey?: string; model: string };
  /** How the tether running this hub was installed (`tether hub` knows: cli/src/config/build.ts),
   *  told to the web app (GET /api/config) so its hints name a command the person has. */
  install?: InstallKind;
};

export const HUB_VERSION: string = pkg.version;
export const DEFAULT_HOST = '127.0.0.1';

export function hubPaths(home: string) {
  return { db: join(home, 'hub.sqlite'), secret: join(home, 'hub-secret') };
}
