// state.ts: what a relay keeps, in its state directory (0700): its settings, its sshd host key, and
// per invited hub the name, the loopback port its key may listen on, and the public key. Never a
// private key of a hub, never user data. `tether relay invite/revoke` edit it; `serve` reads it.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { DNS_NAME, HUB_NAME, isSshAddress } from './join-code.ts';

export const FIRST_HUB_PORT = 20_000;
/** nginx's second hop per hub listens on the relay's loopback from here (one port a hub, in list order). */
export const FIRST_CAP_PORT = 10_000;
/** A phone opens a handful of connections; a busy office behind one NAT a few dozen. */
export const DEFAULT_CONNECTIONS_PER_CLIENT = 64;
/** Every viewer of one hub together: enough for a team, small enough that one hub's crowd (or a
 *  flood aimed at one name) leaves the relay's sockets and CPU to the others. */
export const DEFAULT_CONNECTIONS_PER_HUB = 256;

const HubSchema = z.strictObject({
  name: z.string().regex(HUB_NAME),
  port: z.number().int().min(1024).max(65535),
  publicKey: z.string().regex(/^ssh-ed25519 [A-Za-z0-9+/=]+$/),
  createdAt: z.number(),
});

export const RelaySettingsSchema = z.strictObject({
  /** Hubs are `<name>.<domain>` (a wildcard DNS record points here). */
  domain: z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/).regex(DNS_NAME, 'a DNS name'),
  /** nginx's TLS listener, host:port. */
  listen: z.string().regex(/^[0-9a-z.:[\]-]+:\d{1,5}$/i),
  /** The port phones use (the origin's), when a NAT or a firewall maps 443 to `listen`. */
  publicPort: z.number().int().min(1).max(65535),
  /** sshd's listener, host:port, and the address the join codes give hubs for it. */
  sshListen: z.string().regex(/^[0-9a-z.:[\]-]+:\d{1,5}$/i),
  sshAddress: z.string().refine(isSshAddress, 'host:port, the host a DNS name or an IPv4 address (nothing ssh could read as an option)'),
  /** The account sshd runs as (a non-root sshd lets in only its own user). */
  user: z.string(),
  /** Caps: live connections per hub name and per client address, bytes per second per connection
   *  (0: none), seconds a connection may stay silent, seconds before a tunnel whose hub stopped
   *  answering is dropped. (A state file from before the per-client cap gets its default.) */
  maxConnectionsPerHub: z.number().int().min(1),
  maxConnectionsPerClient: z.number().int().min(1).default(DEFAULT_CONNECTIONS_PER_CLIENT),
  bytesPerSecond: z.number().int().min(0),
  idleSeconds: z.number().int().min(10),
  tunnelDeadSeconds: z.number().int().min(3),
  /** Hubs' tunnel ports on the relay's loopback start here. */
  firstHubPort: z.number().int().min(1024).max(65000),
  /** nginx's second hops (the per-hub caps) on the relay's loopback start here. (A state file from
   *  before the per-hub cap gets its default.) */
  firstCapPort: z.number().int().min(1024).max(65000).default(FIRST_CAP_PORT),
  hubs: z.array(HubSchema),
});

export type RelaySettings = z.infer<typeof RelaySettingsSchema>;
export type RelayHub = z.infer<typeof HubSchema>;

export function statePaths(dir: string) {
  return {
    dir,
    settings: join(dir, 'relay.json'),
    hostKey: join(dir, 'ssh_host_ed25519_key'),
    /** nginx's client certificate towards the hubs' fronts (hop-identity.ts): its key never leaves. */
    hopKey: join(dir, 'hop.key'),
    hopCert: join(dir, 'hop.crt'),
    sshdConfig: join(dir, 'sshd_config'),
    authorizedKeys: join(dir, 'authorized_keys'),
    nginxConfig: join(dir, 'nginx.conf'),
    hubsMap: join(dir, 'hubs.map'),
    /** One nginx server per hub (its connection cap), included by nginx.conf. */
    hubsServers: join(dir, 'hubs.conf'),
    nginxPid: join(dir, 'nginx.pid'),
    sshdPid: join(dir, 'sshd.pid'),
    accessLog: join(dir, 'access.log'),
    /** proxy_pass target for a name no hub has: nothing listens, so nginx closes at once. */
    nowhere: join(dir, 'no-such-hub.sock'),
  };
}

export function readSettings(dir: string): RelaySettings {
  const path = statePaths(dir).settings;
  if (!existsSync(path)) throw new Error(`no relay in ${dir} (start one with tether relay serve --domain NAME)`);
  const parsed = RelaySettingsSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`${path} is damaged: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

export function writeSettings(dir: string, settings: RelaySettings): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = statePaths(dir).settings;
  // Write then rename: an invite and a serve reading at the same moment never see half a file.
  writeFileSync(`${path}.tmp`, `${JSON.stringify(RelaySettingsSchema.parse(settings), null, 2)}\n`, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}

/** The lowest port at or above `first` no hub has. */
export function freeHubPort(hubs: RelayHub[], first: number): number {
  const taken = new Set(hubs.map((h) => h.port));
  let port = first;
  while (taken.has(port)) port++;
  return port;
}
