// relay.ts: `tether relay` itself: set up the state directory, write the engines' configuration
// (engines.ts), run sshd and nginx and watch them; invite and revoke hubs. The relay's own code
// touches no connection: nginx routes, sshd tunnels.
//
//   serve ─► host key (once) ─► sshd_config, authorized_keys, nginx.conf, hubs.map ─► sshd -D, nginx
//   invite NAME ─► key pair ─► authorized_keys + hubs.map ─► nginx reload (SIGHUP) ─► join code
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { capLog } from './cap-log.ts';
import { fingerprintOf, makeHopIdentity } from './hop-identity.ts';
import { sshdNoDelay } from './sshd-nodelay.ts';
import { encodeJoin, HUB_NAME, isSshAddress, RESERVED_NAMES } from './join-code.ts';
import { authorizedKeys, capPort, checkCapPorts, hubsMap, hubsServers, nginxConfig, sshdConfig } from './engines.ts';
import { DEFAULT_CONNECTIONS_PER_CLIENT, DEFAULT_CONNECTIONS_PER_HUB, FIRST_CAP_PORT, FIRST_HUB_PORT, freeHubPort, readSettings, statePaths, writeSettings, type RelaySettings } from './state.ts';

export const SSHD_BIN = process.env.TETHER_SSHD ?? '/usr/sbin/sshd';
export const NGINX_BIN = process.env.TETHER_NGINX ?? '/usr/sbin/nginx';
const SSH_KEYGEN_BIN = process.env.TETHER_SSH_KEYGEN ?? 'ssh-keygen';

export type ServeFlags = {
  domain?: string;
  listen?: string;
  publicPort?: number | undefined;
  sshListen?: string;
  sshAddress?: string;
  maxConnectionsPerHub?: number | undefined;
  maxConnectionsPerClient?: number | undefined;
  bytesPerSecond?: number | undefined;
  idleSeconds?: number | undefined;
  tunnelDeadSeconds?: number | undefined;
  firstHubPort?: number | undefined;
  firstCapPort?: number | undefined;
};

/** The settings after these flags (the first serve needs --domain; later ones keep the rest). */
export function settle(dir: string, flags: ServeFlags): RelaySettings {
  const old = existsSync(statePaths(dir).settings) ? readSettings(dir) : null;
  const domain = flags.domain ?? old?.domain;
  if (!domain) throw new Error('tether relay serve needs --domain NAME the first time (hubs are NAME-of-hub.NAME; point a wildcard DNS record *.NAME here)');
  const listen = flags.listen ?? old?.listen ?? '0.0.0.0:443';
  const sshListen = flags.sshListen ?? old?.sshListen ?? '0.0.0.0:2222';
  const listenPort = Number(listen.slice(listen.lastIndexOf(':') + 1));
  const sshAddress = flags.sshAddress ?? old?.sshAddress ?? `${domain}:${sshListen.slice(sshListen.lastIndexOf(':') + 1)}`;
  // Join codes hand it to ssh's command line on every hub (tunnel.ts).
  if (!isSshAddress(sshAddress)) throw new Error(`--ssh-address must be NAME:PORT with NAME a DNS name or an IPv4 address (hubs hand it to ssh), got "${sshAddress}"`);
  return {
    domain: domain.toLowerCase(),
    listen,
    publicPort: flags.publicPort ?? old?.publicPort ?? listenPort,
    sshListen,
    sshAddress,
    user: accountName(),
    maxConnectionsPerHub: flags.maxConnectionsPerHub ?? old?.maxConnectionsPerHub ?? DEFAULT_CONNECTIONS_PER_HUB,
    maxConnectionsPerClient: flags.maxConnectionsPerClient ?? old?.maxConnectionsPerClient ?? DEFAULT_CONNECTIONS_PER_CLIENT,
    bytesPerSecond: flags.bytesPerSecond ?? old?.bytesPerSecond ?? 0,
    idleSeconds: flags.idleSeconds ?? old?.idleSeconds ?? 3600,
    tunnelDeadSeconds: flags.tunnelDeadSeconds ?? old?.tunnelDeadSeconds ?? 30,
    firstHubPort: flags.firstHubPort ?? old?.firstHubPort ?? FIRST_HUB_PORT,
    firstCapPort: flags.firstCapPort ?? old?.firstCapPort ?? FIRST_CAP_PORT,
    hubs: old?.hubs ?? [],
  };
}

/** The account this runs as (sshd's AllowUsers). Bun 1.4's os.userInfo() says "unknown" for a
 *  user it cannot look up the way Node does, so `id -un` decides. */
function accountName(): string {
  const id = spawnSync('id', ['-un'], { encoding: 'utf8' });
  const name = id.status === 0 ? id.stdout.trim() : userInfo().username;
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(name)) throw new Error(`cannot tell which account this is (id -un: "${name}")`);
  return name;
}

/** Writes every engine file from the settings. */
export function writeEngineFiles(dir: string, settings: RelaySettings): void {
  const paths = statePaths(dir);
  writeSettings(dir, settings);
  writeFileSync(paths.authorizedKeys, authorizedKeys(settings), { mode: 0o600 });
  writeFileSync(paths.sshdConfig, sshdConfig(settings, dir), { mode: 0o600 });
  checkCapPorts(settings);
  writeFileSync(paths.hubsMap, hubsMap(settings), { mode: 0o644 });
  writeFileSync(paths.hubsServers, hubsServers(settings, dir), { mode: 0o644 });
  writeFileSync(paths.nginxConfig, nginxConfig(settings, dir), { mode: 0o644 });
}

function hostKey(dir: string): string {
  const path = statePaths(dir).hostKey;
  if (!existsSync(path)) {
    const made = spawnSync(SSH_KEYGEN_BIN, ['-q', '-t', 'ed25519', '-N', '', '-C', 'tether-relay', '-f', path], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`ssh-keygen could not make the relay's host key: ${made.stderr}`);
  }
  return readFileSync(`${path}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
}

/** The relay's hop certificate (made once, like the host key); its fingerprint for join codes. */
async function hopFingerprint(dir: string): Promise<string> {
  const paths = statePaths(dir);
  if (!existsSync(paths.hopCert) || !existsSync(paths.hopKey)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const made = await makeHopIdentity({ commonName: 'tether relay hop', years: 30 });
    writeFileSync(paths.hopKey, made.key, { mode: 0o600 });
    writeFileSync(paths.hopCert, made.cert, { mode: 0o644 });
  }
  return fingerprintOf(readFileSync(paths.hopCert, 'utf8'));
}

/** Tells a running nginx to re-read hubs.map (new connections use it; live ones are untouched). */
function reloadNginx(dir: string): boolean {
  const pidPath = statePaths(dir).nginxPid;
  if (!existsSync(pidPath)) return false;
  const pid = Number(readFileSync(pidPath, 'utf8').trim());
  // An empty or half-written pid file reads as 0: kill(0) would signal our own process group.
  if (!Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, 'SIGHUP');
    return true;
  } catch {
    return false;
  }
}

export async function invite(dir: string, name: string): Promise<{ code: string; reloaded: boolean; url: string }> {
  const wanted = name.toLowerCase();
  if (!HUB_NAME.test(wanted)) throw new Error(`not a hub name: "${name}" (lowercase letters, digits and inner dashes, at most 40)`);
  if (RESERVED_NAMES.has(wanted)) throw new Error(`"${wanted}" is reserved (it would look like the relay's own name)`);
  const settings = readSettings(dir);
  if (settings.hubs.some((h) => h.name === wanted)) throw new Error(`"${wanted}" is already invited; tether relay revoke ${wanted} first to issue a new code`);
  const hop = await hopFingerprint(dir);
  const temp = mkdtempSync(join(tmpdir(), 'tether-invite-'));
  try {
    const keyPath = join(temp, 'key');
    const made = spawnSync(SSH_KEYGEN_BIN, ['-q', '-t', 'ed25519', '-N', '', '-C', `tether-relay:${wanted}`, '-f', keyPath], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr}`);
    const publicKey = readFileSync(`${keyPath}.pub`, 'utf8').split(' ').slice(0, 2).join(' ');
    const port = freeHubPort(settings.hubs, settings.firstHubPort);
    const next = { ...settings, hubs: [...settings.hubs, { name: wanted, port, publicKey, createdAt: Date.now() }] };
    const fullName = `${wanted}.${settings.domain}`;
    const url = `https://${fullName}${settings.publicPort === 443 ? '' : `:${settings.publicPort}`}`;
    const code = encodeJoin({ name: fullName, origin: url, ssh: settings.sshAddress, user: settings.user, hostKey: hostKey(dir), port, hop, key: readFileSync(keyPath, 'utf8') });
    writeEngineFiles(dir, next);
    return { code, reloaded: reloadNginx(dir), url };
  } finally {
    // The relay keeps the public half only.
    rmSync(temp, { recursive: true, force: true });
  }
}

export function revoke(dir: string, name: string): { reloaded: boolean } {
  const settings = readSettings(dir);
  if (!settings.hubs.some((h) => h.name === name)) throw new Error(`no hub "${name}" on this relay`);
  writeEngineFiles(dir, { ...settings, hubs: settings.hubs.filter((h) => h.name !== name) });
  return { reloaded: reloadNginx(dir) };
}

export type Running = { settings: RelaySettings; lines: string[]; exited: Promise<string>; stop(): Promise<void> };

function run(bin: string, args: string[], what: string, onLine?: (line: string) => void): { child: ChildProcess; exited: Promise<string>; output: () => string } {
  // A process group of its own: a Ctrl-C at the relay's terminal (or a signal to its group) reaches
  // tether relay alone, which stops sshd's tunnels before sshd. Had sshd's listener got the signal
  // too, it would be gone before its per-connection processes (their own sessions) were listed, and
  // they would keep tunnels open after the relay stopped (seen once: no hub reconnected after a restart).
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let partial = '';
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output = (output + text).slice(-16_384);
    if (!onLine) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop()!.slice(-4096);
    for (const line of lines) onLine(line);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`${what} did not start: ${error.message}`));
    child.once('exit', (code, signal) => resolve(`${what} exited (${signal ?? code}): ${output.trim().split('\n').slice(-3).join(' | ')}`));
  });
  return { child, exited, output: () => output };
}

/** The direct children of `pid` (Linux: /proc/<pid>/task/<pid>/children), [] elsewhere. */
function childrenOf(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resolves null once `address` accepts connections, or why not (its process ended, 10 s passed). */
async function listening(address: string, exited: Promise<string>): Promise<string | null> {
  const host = address.slice(0, address.lastIndexOf(':')).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  let ended: string | null = null;
  void exited.then((why) => (ended = why));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (ended) return ended;
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return null;
    await Bun.sleep(50);
  }
  return `nothing listens on ${address} after 10 s`;
}

/** How often refusals beyond the first are summed up in one line (cap-log.ts). */
const CAP_LOG_WINDOW_MS = 10_000;

/** Starts sshd and nginx on the state directory; `exited` resolves with why when either stops.
 *  `report` gets the relay's own lines while it runs (a cap refusing connections). */
/** sshd started as root (even `sshd -t`) needs its privilege-separation directory, which a machine
 *  without systemd's tmpfiles (a container, a fresh CI box) does not have after installing it. */
export function makeSshdRuntimeDir(): void {
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
}

export async function serve(dir: string, flags: ServeFlags, report: (line: string) => void = () => {}): Promise<Running> {
  for (const [bin, pkg] of [[SSHD_BIN, 'openssh-server'], [NGINX_BIN, 'nginx-light']] as const) {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: apt-get install -y ${pkg}`);
  }
  const { NGINX_STREAM_MODULE } = await import('./engines.ts');
  if (!existsSync(NGINX_STREAM_MODULE)) throw new Error(`${NGINX_STREAM_MODULE} is missing: apt-get install -y libnginx-mod-stream`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const settings = settle(dir, flags);
  const key = hostKey(dir);
  const hop = await hopFingerprint(dir);
  writeEngineFiles(dir, settings);
  makeSshdRuntimeDir();
  const paths = statePaths(dir);
  const checked = spawnSync(NGINX_BIN, ['-t', '-q', '-e', 'stderr', '-c', paths.nginxConfig], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`nginx refused the configuration: ${checked.stderr.trim()}`);
  let sshdPid: number | undefined;
  const noDelay = sshdNoDelay({ sshdPid: () => sshdPid, report });
  const sshd = run(SSHD_BIN, ['-D', '-e', '-f', paths.sshdConfig], 'sshd', () => noDelay.poke());
  sshdPid = sshd.child.pid;
  // Hubs invited while this runs are in the state file, not in `settings`.
  const hubAtPort = (port: number) => {
    try {
      const now = readSettings(dir);
      return now.hubs.find((h) => capPort(now, h) === port)?.name;
    } catch {
      return undefined;
    }
  };
  const caps = capLog({ domain: settings.domain, hubAtPort, perHub: settings.maxConnectionsPerHub, perClient: settings.maxConnectionsPerClient, windowMs: CAP_LOG_WINDOW_MS });
  const nginx = run(NGINX_BIN, ['-e', 'stderr', '-c', paths.nginxConfig], 'nginx', (line) => caps.feed(line).forEach(report));
  const flushing = setInterval(() => caps.flush().forEach(report), CAP_LOG_WINDOW_MS);
  flushing.unref();
  const stop = async () => {
    clearInterval(flushing);
    noDelay.close();
    // sshd's per-connection processes outlive its listener by design; a stopped relay must not
    // keep tunnels open, so they go first (by pid, from the kernel's list of sshd's children).
    for (const pid of childrenOf(sshd.child.pid)) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
    for (const p of [nginx, sshd]) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    }
    await Promise.race([Promise.all([nginx.exited, sshd.exited]), Bun.sleep(5_000)]);
  };
  for (const [address, what] of [[settings.sshListen, sshd], [settings.listen, nginx]] as const) {
    const failed = await listening(address, what.exited);
    if (failed) {
      await stop();
      throw new Error(failed);
    }
  }
  const lines = [
    `tether relay: TLS on ${settings.listen} for *.${settings.domain} (passed through by SNI, never ended here), tunnels over ssh on ${settings.sshListen}`,
    `host key: ${key}`,
    `hop certificate (what hubs' fronts accept PROXY lines from): sha256 ${hop}`,
    `state: ${dir} (${settings.hubs.length} hub${settings.hubs.length === 1 ? '' : 's'} invited); invite one: tether relay invite NAME`,
    `caps: ${settings.maxConnectionsPerHub} connections per hub, ${settings.maxConnectionsPerClient} per client address, ${settings.bytesPerSecond ? `${settings.bytesPerSecond} bytes/s per connection` : 'no byte rate cap'}, idle connections closed after ${settings.idleSeconds} s, dead tunnels after ~${settings.tunnelDeadSeconds} s`,
  ];
  return { settings, lines, exited: Promise.race([sshd.exited, nginx.exited]), stop };
}
