// relay.bench.ts: what `tether relay` costs, on loopback, in one run.
//
//   relay:  client ─TLS─► nginx stream ─PROXY+TLS─► sshd ═ssh -R═► ssh ─► front (ends TLS) ─► server
//   direct: client ─TLS─► the same server, TLS ended by Bun itself with the same certificate
//
// The server is a stand-in for the hub's http side (a Bun.serve that streams bytes and answers a
// tiny request), so the figures are the relay path's own cost, not the terminal pipeline's.
//   relay_throughput_ratio: MB/s of a 50 MB body, relay ÷ direct (median of ROUNDS alternated pairs).
//   relay_echo_added_ms_p99: p99 of 1,000 request/response round trips on one kept-alive TLS
//     connection, relay minus direct.
//   relay_rss_mb_100_tunnels: RSS of nginx (master + worker) and sshd (listener + its per-tunnel
//     processes) with 100 idle tunnels up.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { decodeJoin } from '../cli/src/relay/join-code.ts';
import { invite, serve } from '../cli/src/relay/relay.ts';
import { startFront } from '../cli/src/relay-link/front.ts';
import { createPeers } from '../cli/src/relay-link/peers.ts';
import { keepTunnel, type Tunnel } from '../cli/src/relay-link/tunnel.ts';
import { freePort } from '../tests/harness/balancer.ts';
import { percentile, round } from './load/fleet.ts';

type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const BODY_MB = 50;
const ROUNDS = 5;
const ECHOES = 1000;
const TUNNELS = 100;
const NAME = 'bench.relay.test';

function certificate(dir: string): { key: string; cert: string } {
  const [key, cert] = [join(dir, 'k.pem'), join(dir, 'c.pem')];
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${NAME}`, '-addext', `subjectAltName=DNS:${NAME}`, '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

function open(port: number, ca: string): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername: NAME, ca, ALPNProtocols: ['http/1.1'] }, () => resolve(socket));
    socket.once('error', reject);
    socket.setNoDelay(true);
    socket.on('error', () => {});
  });
}

/** Sends a request, resolves when `bytes` of response body (after the headers) arrived. */
function exchange(socket: TLSSocket, path: string, bytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    let headers = true;
    let head = '';
    const onData = (chunk: Buffer) => {
      if (headers) {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        headers = false;
        seen = head.length - end - 4;
      } else seen += chunk.length;
      if (seen >= bytes) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`connection closed after ${seen} bytes`)));
    socket.write(`GET ${path} HTTP/1.1\r\nhost: ${NAME}\r\n\r\n`);
  });
}

async function throughput(port: number, ca: string): Promise<number> {
  const socket = await open(port, ca);
  const started = performance.now();
  await exchange(socket, '/bulk', BODY_MB * 1e6);
  const mbS = BODY_MB / ((performance.now() - started) / 1000);
  socket.destroy();
  return mbS;
}

async function echoP99(port: number, ca: string): Promise<number> {
  const socket = await open(port, ca);
  const times: number[] = [];
  for (let i = 0; i < ECHOES; i++) {
    const t = performance.now();
    await exchange(socket, '/echo', 2);
    times.push(performance.now() - t);
  }
  socket.destroy();
  return percentile(times, 99);
}

/** kB of `field` (Rss, Pss) in /proc/<pid>/smaps_rollup. Pss shares each shared page among the
 *  processes mapping it: 100 sshd processes share one copy of libcrypto, which Rss counts 100 times. */
function memoryKb(pid: number, field: 'Rss' | 'Pss'): number {
  try {
    return Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function tree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // gone
  }
  return [pid, ...children.flatMap(tree)];
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-relay-bench-'));
  const stops: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    const pem = certificate(dir);
    const body = Buffer.alloc(BODY_MB * 1e6, 'the quick brown fox jumps over the lazy dog 0123456789\n');
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => (new URL(req.url).pathname === '/bulk' ? new Response(body) : new Response('ok')) });
    const direct = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: pem, fetch: (req) => (new URL(req.url).pathname === '/bulk' ? new Response(body) : new Response('ok')) });
    stops.push(() => server.stop(true), () => direct.stop(true));

    const [listen, ssh, first] = [await freePort(), await freePort(), await freePort()];
    const state = join(dir, 'relay');
    const relay = await serve(state, { domain: 'relay.test', listen: `127.0.0.1:${listen}`, sshListen: `127.0.0.1:${ssh}`, sshAddress: `127.0.0.1:${ssh}`, firstHubPort: first, maxConnectionsPerHub: 1000 });
    stops.push(() => relay.stop());
    const join_ = decodeJoin(invite(state, 'bench').code);
    const front = await startFront({ hub: { host: '127.0.0.1', port: server.port! }, peers: createPeers(), log: () => {} });
    front.setCertificate(pem);
    stops.push(() => front.close());
    const tunnels: Tunnel[] = [];
    stops.push(() => Promise.all(tunnels.map((t) => t.close())));
    const up = (t: { join: typeof join_; frontPort: number; home: string }) =>
      new Promise<void>((resolve, reject) => {
        tunnels.push(keepTunnel({ join: t.join, dir: t.home, frontPort: t.frontPort, onState: (s) => (s.kind === 'up' ? resolve() : s.kind === 'down' ? reject(new Error(s.reason)) : undefined) }));
      });
    await up({ join: join_, frontPort: front.port, home: join(dir, 'hub-bench') });
    // nginx re-reads its map on SIGHUP: give the new worker a moment.
    await Bun.sleep(500);

    const ratios: number[] = [];
    const figures: Array<{ relay: number; direct: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const d = await throughput(direct.port!, pem.cert);
      const v = await throughput(listen, pem.cert);
      figures.push({ relay: v, direct: d });
      ratios.push(v / d);
    }
    const echoDirect = await echoP99(direct.port!, pem.cert);
    const echoRelay = await echoP99(listen, pem.cert);

    // 99 more idle tunnels (their fronts: the same one; nothing flows).
    for (let i = 1; i < TUNNELS; i++) await up({ join: decodeJoin(invite(state, `idle${i}`).code), frontPort: front.port, home: join(dir, `hub-${i}`) });
    await Bun.sleep(1_000);
    const pids = [...tree(Number(readFileSync(join(state, 'nginx.pid'), 'utf8'))), ...tree(Number(readFileSync(join(state, 'sshd.pid'), 'utf8')))];
    const rssMb = pids.reduce((sum, pid) => sum + memoryKb(pid, 'Rss'), 0) / 1024;
    const pssMb = pids.reduce((sum, pid) => sum + memoryKb(pid, 'Pss'), 0) / 1024;

    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
    return [
      { name: 'relay_throughput_ratio', value: round(median, 3), unit: 'ratio', rounds: figures.map((f) => ({ relay_mb_s: round(f.relay, 1), direct_mb_s: round(f.direct, 1) })), body_mb: BODY_MB },
      { name: 'relay_echo_added_ms_p99', value: round(echoRelay - echoDirect, 3), unit: 'ms', relay_p99_ms: round(echoRelay, 3), direct_p99_ms: round(echoDirect, 3), round_trips: ECHOES },
      { name: 'relay_rss_mb_100_tunnels', value: round(rssMb, 1), unit: 'MB', pss_mb: round(pssMb, 1), processes: pids.length, tunnels: tunnels.length },
    ];
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
  }
}
