// engines.ts: the configuration `tether relay` writes for the two engines that do the work:
// OpenSSH's sshd (the hubs' tunnels, each key allowed to listen on its own loopback port only) and
// nginx's stream module (routes each TLS connection by its SNI to that port, never ending TLS, with
// the client's address in a PROXY v1 line first). Pure text from settings: tested line by line.
//
// nginx in two hops, because limit_conn runs before ssl_preread (the name is not known yet there):
//   :443 ─ per-client cap, ssl_preread, map SNI ─PROXY v1 + hop TLS(phone's TLS)─► 127.0.0.1:<hub's cap port>
//   127.0.0.1:<cap port> ─ per-hub cap (keyed on that port) ─ same bytes ─► 127.0.0.1:<hub port> (sshd's -R)
// The first hop wraps what it forwards in TLS with the relay's hop certificate (proxy_ssl): a hub's
// front believes a PROXY line only when such a handshake follows it (front.ts), since the ports
// behind nginx are open to every local user of the relay's box. The second hop does not read the
// PROXY line, it passes it on. It listens on TCP, not a unix
// socket: nginx's workers run as nobody under a root master and could not reach a socket inside
// the 0700 state directory; and a PROXY line nginx wrote from a unix socket would name the socket.
import type { RelayHub, RelaySettings } from './state.ts';
import { statePaths } from './state.ts';

export const NGINX_STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';

/** One key per hub: tunnels only, and only to 127.0.0.1:<its port>. */
export function authorizedKeys(settings: RelaySettings): string {
  return settings.hubs.map((hub) => `restrict,port-forwarding,permitlisten="127.0.0.1:${hub.port}" ${hub.publicKey} tether-relay:${hub.name}\n`).join('');
}

export function sshdConfig(settings: RelaySettings, dir: string): string {
  const paths = statePaths(dir);
  const [host, port] = [settings.sshListen.slice(0, settings.sshListen.lastIndexOf(':')), settings.sshListen.slice(settings.sshListen.lastIndexOf(':') + 1)];
  return [
    `# written by tether relay; edits are overwritten`,
    `ListenAddress ${host}`,
    `Port ${port}`,
    `HostKey ${paths.hostKey}`,
    `PidFile ${paths.sshdPid}`,
    `AuthorizedKeysFile ${paths.authorizedKeys}`,
    // The state directory may sit under a world-writable parent (/tmp in tests); tether writes its
    // files 0600 itself.
    `StrictModes no`,
    `UsePAM no`,
    `AllowUsers ${settings.user}`,
    `PermitRootLogin prohibit-password`,
    `PubkeyAuthentication yes`,
    `PasswordAuthentication no`,
    `KbdInteractiveAuthentication no`,
    `AuthenticationMethods publickey`,
    `MaxAuthTries 2`,
    `LoginGraceTime 10`,
    // Half-open ssh handshakes: refuse some from 10 unauthenticated, all from 100.
    `MaxStartups 10:30:100`,
    `AllowTcpForwarding remote`,
    `GatewayPorts no`,
    `AllowStreamLocalForwarding no`,
    `AllowAgentForwarding no`,
    `X11Forwarding no`,
    `PermitTTY no`,
    `PermitTunnel no`,
    `PermitUserRC no`,
    `ForceCommand /bin/false`,
    `ClientAliveInterval ${Math.max(1, Math.round(settings.tunnelDeadSeconds / 3))}`,
    `ClientAliveCountMax 3`,
    `LogLevel VERBOSE`,
    '',
  ].join('\n');
}

/** nginx stream's buffer per direction and hop (default 16k). 64k took nginx's CPU for 50 MB from
 *  40-50 ms to 20-30 ms (bench/relay.bench.ts profile); it costs 4 × 64 KiB per busy connection over
 *  both hops, so not more. */
const PROXY_BUFFER = '64k';

/** A hub's second hop: a loopback port of its own, from `firstCapPort` in the list's order (nginx's
 *  map and servers are written again whenever the list changes, so the order may change with it). */
export function capPort(settings: RelaySettings, hub: RelayHub): number {
  return settings.firstCapPort + settings.hubs.findIndex((h) => h.name === hub.name);
}

/** The ports of the second hops must not be hubs' tunnel ports. */
export function checkCapPorts(settings: RelaySettings): void {
  const tunnels = new Set(settings.hubs.map((h) => h.port));
  const clash = settings.hubs.find((hub) => tunnels.has(capPort(settings, hub)));
  if (clash) throw new Error(`the per-hub cap port ${capPort(settings, clash)} is also a hub's tunnel port: move --first-cap-port (now ${settings.firstCapPort}) away from --first-hub-port (${settings.firstHubPort})`);
}

/** `name.domain 127.0.0.1:<cap port>;` per hub (nginx map, included). */
export function hubsMap(settings: RelaySettings): string {
  return settings.hubs.map((hub) => `${hub.name}.${settings.domain} 127.0.0.1:${capPort(settings, hub)};\n`).join('');
}

/** The second hop per hub: its connection cap, then its tunnel port (included). */
export function hubsServers(settings: RelaySettings, dir: string): string {
  const paths = statePaths(dir);
  return settings.hubs
    .map(
      (hub) => `server {
  listen 127.0.0.1:${capPort(settings, hub)};
  access_log ${paths.accessLog} relay_hub;
  limit_conn per_hub ${settings.maxConnectionsPerHub};
  proxy_pass 127.0.0.1:${hub.port};
  proxy_connect_timeout 5s;
  proxy_timeout ${settings.idleSeconds}s;
  proxy_buffer_size ${PROXY_BUFFER};
}
`,
    )
    .join('');
}

export function nginxConfig(settings: RelaySettings, dir: string): string {
  const paths = statePaths(dir);
  return `# written by tether relay; edits are overwritten
load_module ${NGINX_STREAM_MODULE};
daemon off;
master_process on;
worker_processes 1;
pid ${paths.nginxPid};
error_log stderr notice;
events { worker_connections 8192; }
stream {
  log_format relay '$remote_addr [$time_local] sni="$ssl_preread_server_name" hub=$upstream_addr status=$status in=$bytes_received out=$bytes_sent time=$session_time';
  access_log ${paths.accessLog} relay;
  # The second hop's line (its client is nginx's first hop; 503: the hub's cap refused it).
  log_format relay_hub '[$time_local] cap_port=$server_port status=$status in=$bytes_received out=$bytes_sent time=$session_time';
  map $ssl_preread_server_name $hub_backend {
    hostnames;
    include ${paths.hubsMap};
    default unix:${paths.nowhere};
  }
  # Connections per client address (first hop) and per hub (second hop; its port names the hub).
  limit_conn_zone $binary_remote_addr zone=per_client:4m;
  limit_conn_zone $server_port zone=per_hub:1m;
  # A refusal is a warning line on stderr that tether relay turns into its own (cap-log.ts).
  limit_conn_log_level warn;
  server {
    listen ${settings.listen} backlog=4096;
    ssl_preread on;
    # A client that never sends its ClientHello is dropped here, before any hub sees it.
    preread_timeout 5s;
    limit_conn per_client ${settings.maxConnectionsPerClient};
    proxy_pass $hub_backend;
    proxy_protocol on;
    # The hop's TLS: the PROXY line above is believed only when this handshake follows it.
    proxy_ssl on;
    proxy_ssl_certificate ${paths.hopCert};
    proxy_ssl_certificate_key ${paths.hopKey};
    proxy_ssl_protocols TLSv1.3;
    proxy_connect_timeout 5s;
    proxy_timeout ${settings.idleSeconds}s;
    proxy_buffer_size ${PROXY_BUFFER};
    proxy_upload_rate ${settings.bytesPerSecond};
    proxy_download_rate ${settings.bytesPerSecond};
  }
  include ${paths.hubsServers};
}
`;
}
