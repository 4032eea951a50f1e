// relay-world.ts (harness): `tether relay` on loopback and hubs that reach it the way a hub at home
// does: from their own network namespace, dialling out only.
//
//   chromium (NSS trusts pebble's root; MAP *.relay.test → 127.0.0.1) ─► tap (socat -x) :public
//     ─► nginx stream :listen (tether relay) ─PROXY+TLS─► sshd ─ssh -R─► hub's front ─► hub
//   hub (unshare -rmnp: own loopback, no route out) ─uplink─► relay's ssh, the public port, pebble
//   pebble + challtestsrv (A → 127.0.0.1): validates TLS-ALPN-01 by dialling the public port
//
// The uplink: inside the namespace `socat TCP-LISTEN:<p>` per outside port, to a unix socket in the
// test's temp dir, where an outside socat connects to 127.0.0.1:<p>. Only those ports are
// reachable from inside, and nothing inside is reachable from outside, except the runner's bridge
// (a unix socket to the hub's http port: the developer's own `tether claude` on the same machine).
// Killing the outside uplinks is the hub's network going away.
//
// Invariant: stop() ends every process started here and removes the temp dir.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { freePort } from './balancer.ts';
import { launchBrowser, type BrowserHandle } from './browser.ts';
import { TETHER_MAIN } from './desk.ts';
import { startHubProcess, type HubProcessHandle } from './hub.ts';
import { requireBinary, startPebble, type PebbleHandle } from './pebble.ts';
import { nssHome, UNSHARE_BIN, CERTUTIL_BIN, worldScope } from './tls-world.ts';

export const RELAY_DOMAIN = 'relay.test';
export const SOCAT_BIN = process.env.TETHER_SOCAT ?? '/usr/bin/socat';
const BUN = process.execPath.endsWith('bun') ? process.execPath : 'bun';

export type RelayHubHandle = HubProcessHandle & {
  /** http://127.0.0.1:<port> on the host, bridged to the hub's http port (the runner's way in). */
  runnerUrl: string;
  /** The port the hub listens on inside its namespace (nothing answers it outside). */
  innerPort: number;
  /** Cuts the hub's network (the outside end of its uplink) until restore(). */
  cut(): Promise<void>;
  restore(): Promise<void>;
};

export type RelayWorld = {
  /** The port phones and the CA use (the tap in front of nginx). */
  publicPort: number;
  /** nginx's own port (behind the tap). */
  nginxPort: number;
  /** The first hub invited has its second hop (its per-hub cap) here, the next one port up. */
  firstCapPort: number;
  pebble: PebbleHandle;
  browser: BrowserHandle | null;
  /** GET <path> at https://<name>.relay.test through the relay, verified against pebble's root. */
  get(name: string, path: string): Promise<{ status: number; subject: string }>;
  /** `tether relay serve --state` (what the relay's operator owns: its engines' files). */
  stateDir: string;
  /** nginx's access log (one line per connection). */
  accessLog(): string;
  /** `tether relay invite NAME`: the join code (or the CLI's failure). */
  invite(name: string): { code: string; stderr: string; status: number | null };
  startHub(options: { name: string; code: string }): Promise<RelayHubHandle>;
  /** Every byte the tap saw, both directions, decoded from socat -x's hex. */
  tapped(): Buffer;
  restartRelay(): Promise<void>;
  relayOutput(): string;
  stop(): Promise<void>;
};

type Proc = { child: ChildProcess; output: () => string; exited: Promise<void> };

function start(bin: string, args: string[], env: NodeJS.ProcessEnv = process.env): Proc {
  // Its own process group: ending it ends what it forked (socat's per-connection children), as a
  // real network loss or a relay host going down would.
  const child = spawn(bin, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => output, exited };
}

async function end(proc: Proc): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-proc.child.pid!, signal);
    } catch {
      proc.child.kill(signal);
    }
  };
  group('SIGTERM');
  const timer = setTimeout(() => group('SIGKILL'), 5_000);
  await proc.exited;
  clearTimeout(timer);
}

async function waitFor(proc: Proc, pattern: RegExp, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pattern.test(proc.output())) {
    if (proc.child.exitCode !== null) throw new Error(`${what} exited:\n${proc.output()}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready in ${ms} ms:\n${proc.output()}`);
    await Bun.sleep(50);
  }
}

/** socat -x's dump: "> 2026/… length=N from=… to=…" then lines of hex pairs. */
export function decodeTap(dump: string): Buffer {
  const bytes: number[] = [];
  for (const line of dump.split('\n')) {
    if (!/^ [0-9a-f]{2}( [0-9a-f]{2})* *$/.test(line)) continue;
    for (const pair of line.trim().split(' ')) bytes.push(parseInt(pair, 16));
  }
  return Buffer.from(bytes);
}

/** One raw HTTP/1.1 exchange over TLS (SNI = name, CA = pebble's root) to 127.0.0.1:port, or over
 *  `socket` when given (a test that writes its own bytes first). `request` is sent as is. */
export function relayRequest(o: { port?: number; name: string; request: string; ca: string; localAddress?: string; socket?: Socket }): Promise<{ status: number; subject: string; text: string }> {
  return new Promise((resolve, reject) => {
    let secure = false;
    const target = o.socket ? { socket: o.socket } : { host: '127.0.0.1', port: o.port!, ...(o.localAddress ? { localAddress: o.localAddress } : {}) };
    const socket = tlsConnect({ ...target, servername: o.name, ca: o.ca, ALPNProtocols: ['http/1.1'] }, () => {
      secure = true;
      socket.write(o.request);
    });
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('end', () => (!secure ? reject(new Error('closed before TLS was established')) : resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(data)?.[1] ?? 0), subject: String(socket.getPeerCertificate()?.subject?.CN ?? ''), text: data })));
    socket.on('close', () => (!secure ? reject(new Error('closed before TLS was established')) : undefined));
    socket.on('error', reject);
  });
}

/** One HTTPS GET over node:tls (SNI = name, CA = pebble's root) to 127.0.0.1:port. */
export async function relayGet(o: { port: number; name: string; path: string; ca: string; localAddress?: string }): Promise<{ status: number; subject: string }> {
  const { status, subject } = await relayRequest({ ...o, request: `GET ${o.path} HTTP/1.1\r\nhost: ${o.name}\r\nconnection: close\r\n\r\n` });
  return { status, subject };
}

export async function startRelayWorld(options: { browser?: boolean; maxConnectionsPerClient?: number; maxConnectionsPerHub?: number } = {}): Promise<RelayWorld> {
  requireBinary(SOCAT_BIN, 'socat');
  requireBinary(CERTUTIL_BIN, 'libnss3-tools');
  requireBinary(UNSHARE_BIN, 'util-linux');
  const { dir, stops, stop } = worldScope('tether-relay-world-');
  try {
    const [publicPort, nginxPort, sshPort, firstHubPort, firstCapPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const pebble = await startPebble({ validation: { httpPort: await freePort(), tlsPort: publicPort } });
    stops.push(() => pebble.stop());
    const acmePort = Number(new URL(pebble.directoryUrl).port);
    const caBundle = join(dir, 'ca-bundle.pem');
    writeFileSync(caBundle, `${pebble.rootPem}\n${readFileSync(pebble.listenerCaPath, 'utf8')}`);

    const tapLog = join(dir, 'tap.log');
    const tap = start('sh', ['-c', `exec "$0" -x TCP-LISTEN:${publicPort},bind=127.0.0.1,fork,reuseaddr TCP:127.0.0.1:${nginxPort} 2>"$1"`, SOCAT_BIN, tapLog]);
    stops.push(() => end(tap));

    const state = join(dir, 'relay-state');
    const relayArgs = ['relay', 'serve', '--state', state, '--domain', RELAY_DOMAIN, '--listen', `127.0.0.1:${nginxPort}`, '--public-port', String(publicPort), '--ssh-listen', `127.0.0.1:${sshPort}`, '--ssh-address', `127.0.0.1:${sshPort}`, '--first-hub-port', String(firstHubPort), '--first-cap-port', String(firstCapPort), '--tunnel-dead-seconds', '6', '--max-connections-per-client', String(options.maxConnectionsPerClient ?? 40), '--max-connections-per-hub', String(options.maxConnectionsPerHub ?? 64)];
    let relayLog = '';
    let relay = start(BUN, [TETHER_MAIN, ...relayArgs], { ...process.env, TETHER_HOME: join(dir, 'relay-home') });
    await waitFor(relay, /tether relay ready/, 'tether relay');
    stops.push(() => end(relay));

    const browser = options.browser === false ? null : await launchBrowser({ home: nssHome({ dir, rootPath: pebble.rootPath }), args: [`--host-resolver-rules=MAP *.${RELAY_DOMAIN} 127.0.0.1`] });
    if (browser) stops.push(() => browser.stop());

    const hostsPath = join(dir, 'hosts');
    writeFileSync(hostsPath, '127.0.0.1 localhost\n::1 localhost\n');
    let hubs = 0;
    const startHub = async (o: { name: string; code: string }): Promise<RelayHubHandle> => {
      const n = ++hubs;
      const home = join(dir, `hub-${n}`);
      const socks = join(dir, `up-${n}`);
      mkdirSync(home);
      mkdirSync(socks);
      writeFileSync(hostsPath, `${readFileSync(hostsPath, 'utf8')}127.0.0.1 ${o.name}.${RELAY_DOMAIN}\n`);
      const uplinked = [sshPort, publicPort, acmePort];
      const outside: Proc[] = [];
      const openUplinks = async () => {
        for (const port of uplinked) {
          const p = start(SOCAT_BIN, [`UNIX-LISTEN:${join(socks, `${port}.sock`)},fork,unlink-early`, `TCP:127.0.0.1:${port}`]);
          outside.push(p);
        }
        await Bun.sleep(100);
      };
      const closeUplinks = async () => {
        for (const p of outside.splice(0)) await end(p);
      };
      await openUplinks();
      stops.push(closeUplinks);
      const innerPort = await freePort();
      const inside = [
        'ip link set lo up',
        'mount --bind "$0" /etc/hosts',
        // Their pids kept by hand: `$(jobs -p)` runs in a subshell, which has no jobs.
        'pids=""',
        ...uplinked.map((port) => `"$SOCAT" TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${join(socks, `${port}.sock`)} & pids="$pids $!"`),
        `"$SOCAT" UNIX-LISTEN:${join(socks, 'hub.sock')},fork,unlink-early TCP:127.0.0.1:${innerPort} & pids="$pids $!"`,
        // The hub in the background so this shell can pass it SIGTERM and then end the socats.
        '"$@" & hub=$!',
        `trap 'kill -TERM $hub' TERM INT`,
        'wait $hub; wait $hub; code=$?',
        'kill $pids 2>/dev/null',
        'exit $code',
      ].join('\n');
      const hub = await startHubProcess({
        home,
        port: innerPort,
        command: [UNSHARE_BIN, '-rmn', 'sh', '-c', inside, hostsPath, BUN, TETHER_MAIN],
        env: { NODE_EXTRA_CA_CERTS: caBundle, SOCAT: SOCAT_BIN },
        args: ['--relay', o.code, '--acme-directory', pebble.directoryUrl],
      });
      stops.push(() => hub.stop());
      const runnerPort = await freePort();
      const bridge = start(SOCAT_BIN, [`TCP-LISTEN:${runnerPort},bind=127.0.0.1,fork,reuseaddr`, `UNIX-CONNECT:${join(socks, 'hub.sock')}`]);
      stops.push(() => end(bridge));
      await Bun.sleep(100);
      return { ...hub, runnerUrl: `http://127.0.0.1:${runnerPort}`, innerPort, cut: closeUplinks, restore: openUplinks };
    };

    return {
      publicPort,
      nginxPort,
      firstCapPort,
      pebble,
      browser,
      get: (name, path) => relayGet({ port: publicPort, name: `${name}.${RELAY_DOMAIN}`, path, ca: pebble.rootPem }),
      stateDir: state,
      accessLog: () => readFileSync(join(state, 'access.log'), 'utf8'),
      invite: (name) => {
        const run = spawnSync(BUN, [TETHER_MAIN, 'relay', 'invite', name, '--state', state], { encoding: 'utf8', env: { ...process.env, TETHER_HOME: join(dir, 'relay-home') }, timeout: 20_000 });
        return { code: run.stdout.trim(), stderr: run.stderr, status: run.status };
      },
      startHub,
      tapped: () => decodeTap(readFileSync(tapLog, 'utf8')),
      restartRelay: async () => {
        relayLog += relay.output();
        await end(relay);
        relay = start(BUN, [TETHER_MAIN, ...relayArgs], { ...process.env, TETHER_HOME: join(dir, 'relay-home') });
        await waitFor(relay, /tether relay ready/, 'tether relay (restarted)');
      },
      relayOutput: () => relayLog + relay.output(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
