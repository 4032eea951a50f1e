// relay.bench.ts: what `tether relay` costs, on loopback, in one run. Each relay-side hub end (the
// front ending TLS, ssh -R) runs in a child process of its own (relay-front.ts), as in a real hub.
//
//   relay_throughput_ratio (issue 28's): terminal bytes from a real runner's PTY through the hub to
//     a viewer, the viewer reaching the hub through the relay ÷ directly (http on loopback, the
//     way a hub without a relay is reached); 50 MB per round, ROUNDS alternated pairs, median ratio.
//       relay:  viewer ─TLS─► nginx ─► nginx (per-hub cap) ─► sshd ═ssh -R═► ssh ─► front ─► hub
//       direct: viewer ─────► hub          (both: runner ─PTY/socket─► hub, the same session)
//   relay_raw_throughput_ratio: the relay path alone, raw bytes of a 50 MB body from a Bun.serve
//     stand-in, relay ÷ that stand-in ending TLS itself (no terminal pipeline to hide behind).
//   relay_echo_added_ms_p99: keys typed into `cat` in a real runner's PTY, echo timed at the
//     viewer, relay p99 − direct p99 per run of 200 keys, median of ECHO_RUNS alternated runs.
//   relay_raw_echo_added_ms_p99: the same for 1,000 request/response round trips on one kept-alive
//     TLS connection to the stand-in.
//   relay_rss_mb_100_tunnels: RSS of nginx (master + worker) and sshd (listener + its per-tunnel
//     processes) with 100 idle tunnels up.
// While tuning: TETHER_RELAY_BENCH_ONLY=raw (per-process CPU of raw relay rounds) or =echo (the
// terminal echo alone) prints just that, on stderr.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { decodeJoin } from '../cli/src/relay/join-code.ts';
import { invite, serve } from '../cli/src/relay/relay.ts';
import { startFront } from '../cli/src/relay-link/front.ts';
import { fingerprintOf } from '../cli/src/relay/hop-identity.ts';
import { createPeers } from '../cli/src/relay-link/peers.ts';
import { keepTunnel, type Tunnel } from '../cli/src/relay-link/tunnel.ts';
import { freePort } from '../tests/harness/balancer.ts';
import { startHubProcess } from '../tests/harness/hub.ts';
import { startCommandRunner, viewTerminal } from '../tests/harness/terminal.ts';
import { percentile, round } from './load/fleet.ts';

type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const BODY_MB = 50;
const TERMINAL_MB = 50;
const ROUNDS = 5;
const ECHOES = 1000;
const ECHO_RUNS = 5;
const ECHO_KEYS_PER_RUN = 200;
const TUNNELS = 100;
/** *.localhost: Bun's resolver (socket.io's websocket) answers it with loopback, no hosts file. */
const DOMAIN = 'relay.localhost';
const NAME = `raw.${DOMAIN}`;
const TERMINAL_NAME = `term.${DOMAIN}`;
const FRONT_CHILD = join(import.meta.dir, 'relay-front.ts');
const BIG = (mb: number) => `yes 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJ' | head -c ${Math.round(mb * 1e6)}`;

function certificate(dir: string): { key: string; cert: string } {
  const [key, cert] = [join(dir, 'k.pem'), join(dir, 'c.pem')];
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${NAME}`, '-addext', `subjectAltName=DNS:${NAME},DNS:${TERMINAL_NAME}`, '-keyout', key, '-out', cert], { encoding: 'utf8' });
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
        socket.off('close', onClose);
        resolve();
      }
    };
    const onClose = () => reject(new Error(`connection closed after ${seen} bytes`));
    socket.on('data', onData);
    socket.once('close', onClose);
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

/** `count` consecutive ports free on 127.0.0.1, and `count` more after them for the hubs' second
 *  hops (--first-cap-port), below Linux's ephemeral range (from
 *  32768): a hub port there can be taken by any outgoing connection meanwhile (seen: one of the 100
 *  idle tunnels was refused its forward). */
async function freeHubPorts(count: number): Promise<number> {
  const free = (host: string, port: number) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (32_000 - 20_000 - 2 * count));
    let ok = true;
    for (let port = base; ok && port < base + 2 * count; port++) ok = await free('127.0.0.1', port);
    if (ok) return base;
  }
  throw new Error(`no ${count} free consecutive ports in 20000-32000`);
}

/** The hub end of a tunnel for `name` (relay-front.ts), to 127.0.0.1:<hubPort>; resolves once up. */
async function frontChild(o: { state: string; dir: string; name: string; hubPort: number; pem: { key: string; cert: string } }) {
  const join_ = decodeJoin((await invite(o.state, o.name)).code);
  const child = Bun.spawn([process.execPath, FRONT_CHILD], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  child.stdin.write(`${JSON.stringify({ hubPort: o.hubPort, join: join_, dir: join(o.dir, `front-${o.name}`), pem: o.pem })}\n`);
  child.stdin.flush();
  const reader = child.stdout.getReader();
  let said = '';
  const deadline = setTimeout(() => child.kill(), 30_000);
  while (!said.includes('up ')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`relay-front for ${o.name} ended before its tunnel was up`);
    said += new TextDecoder().decode(value);
  }
  clearTimeout(deadline);
  const stop = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill(), 5_000);
    await child.exited;
    clearTimeout(timer);
  };
  return { stop, pid: child.pid };
}

/** CPU time (user + system, ms) a process has used so far (Linux: /proc/<pid>/stat, 100 Hz ticks). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Where the relay path spends its CPU: per process, ms for one raw relay round of BODY_MB. */
async function profileRound(o: { listen: number; ca: string; state: string; frontPid: number }) {
  const groups: Record<string, number[]> = {
    nginx: tree(Number(readFileSync(join(o.state, 'nginx.pid'), 'utf8'))),
    sshd: tree(Number(readFileSync(join(o.state, 'sshd.pid'), 'utf8'))),
    front: [o.frontPid],
    ssh: tree(o.frontPid).slice(1),
    'bench (client + stand-in server)': [process.pid],
  };
  const before = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, pids.reduce((a, pid) => a + cpuMs(pid), 0)]));
  const t0 = performance.now();
  const mbS = await throughput(o.listen, o.ca);
  const wallMs = performance.now() - t0;
  const cpu = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, pids.reduce((a, pid) => a + cpuMs(pid), 0) - before[k]!]));
  return { mb_s: round(mbS, 1), wall_ms: Math.round(wallMs), cpu_ms: cpu };
}

/** Terminal bytes, runner PTY ─► hub ─► viewer, the viewer direct or through the relay. */
async function terminalThroughput(o: { dir: string; state: string; relayPort: number; pem: { key: string; cert: string }; stops: Array<() => unknown> }) {
  const hubProcess = await startHubProcess({ home: join(o.dir, 'hub'), args: ['--allowed-host', TERMINAL_NAME] });
  o.stops.push(() => hubProcess.stop());
  const hub = { url: hubProcess.url, token: hubProcess.token! };
  o.stops.push((await frontChild({ state: o.state, dir: o.dir, name: 'term', hubPort: Number(new URL(hub.url).port), pem: o.pem })).stop);
  const runner = startCommandRunner({ hub, command: `stty -echo; while read -r go; do ${BIG(TERMINAL_MB)}; done` });
  o.stops.push(() => runner.stop());
  let resyncs = 0;
  /** One round: a fresh viewer (so only it is subscribed), timed from the keypress to the last byte. */
  const round_ = async (via: 'relay' | 'direct') => {
    const url = via === 'relay' ? `https://${TERMINAL_NAME}:${o.relayPort}` : hub.url;
    const viewer = await viewTerminal({ url, token: hub.token, sessionId: runner.sessionId, render: false, ...(via === 'relay' ? { ca: o.pem.cert } : {}) });
    try {
      await viewer.waitFor(() => viewer.snapshots() > 0, 'first snapshot', 30_000);
      const [start, snaps] = [viewer.offset(), viewer.snapshots()];
      const t0 = performance.now();
      await viewer.emit('terminal:input', { sessionId: runner.sessionId, data: 'go\r' });
      await viewer.waitFor(() => viewer.offset() - start >= TERMINAL_MB * 1e6, 'all bytes', 300_000);
      const resynced = viewer.snapshots() - snaps;
      resyncs += resynced;
      return { rate: (viewer.offset() - start) / 1e6 / ((performance.now() - t0) / 1000), whole: resynced === 0 };
    } finally {
      viewer.stop();
    }
  };
  const figures: Array<{ relay: number; direct: number; whole: boolean }> = [];
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first: a box getting busier mid-run hits both sides alike.
    const first = r % 2 === 0 ? 'direct' : 'relay';
    const a = await round_(first);
    const b = await round_(first === 'direct' ? 'relay' : 'direct');
    const [relay, direct] = first === 'direct' ? [b, a] : [a, b];
    figures.push({ relay: relay.rate, direct: direct.rate, whole: relay.whole && direct.whole });
  }
  const echo = await terminalEcho({ hub, relayUrl: `https://${TERMINAL_NAME}:${o.relayPort}`, ca: o.pem.cert, stops: o.stops });
  // A resync (the hub sending a snapshot to a viewer that fell behind) skips bytes, so its rate
  // counts bytes never sent: such pairs count only if every pair had one.
  const whole = figures.filter((f) => f.whole);
  const ratios = (whole.length > 0 ? whole : figures).map((f) => f.relay / f.direct).sort((x, y) => x - y);
  return { ratio: ratios[Math.floor(ratios.length / 2)]!, figures, resyncs, wholePairs: whole.length, echo };
}

/** The three slowest samples as [key index, ms]: a tail at the first keys is warm-up, spread out is not. */
const slowest = (samples: number[]) =>
  samples
    .map((ms, i) => [i, round(ms, 1)] as const)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3);

/** Keys typed into `cat` in a real runner's PTY, the echo timed at the viewer: ECHO_RUNS
 *  alternated runs of ECHO_KEYS_PER_RUN keys per side; added = relay p99 − direct p99 per run. */
async function terminalEcho(o: { hub: { url: string; token: string }; relayUrl: string; ca: string; stops: Array<() => unknown> }) {
  const runner = startCommandRunner({ hub: o.hub, command: 'exec cat' });
  o.stops.push(() => runner.stop());
  const typeKeys = async (via: 'relay' | 'direct') => {
    const url = via === 'relay' ? o.relayUrl : o.hub.url;
    const viewer = await viewTerminal({ url, token: o.hub.token, sessionId: runner.sessionId, render: false, ...(via === 'relay' ? { ca: o.ca } : {}) });
    try {
      await viewer.waitFor(() => viewer.snapshots() > 0, 'first snapshot', 30_000);
      const samples: number[] = [];
      for (let i = 0; i < ECHO_KEYS_PER_RUN; i++) {
        const at = viewer.offset();
        const t0 = performance.now();
        viewer.socket.emit('terminal:input', { sessionId: runner.sessionId, data: 'x' });
        await viewer.waitFor(() => viewer.offset() > at, 'echo');
        samples.push(performance.now() - t0);
      }
      return samples;
    } finally {
      viewer.stop();
    }
  };
  const runs: Array<{ relay: number[]; direct: number[] }> = [];
  for (let r = 0; r < ECHO_RUNS; r++) {
    const first = r % 2 === 0 ? 'direct' : 'relay';
    const a = await typeKeys(first);
    const b = await typeKeys(first === 'direct' ? 'relay' : 'direct');
    runs.push(first === 'direct' ? { direct: a, relay: b } : { relay: a, direct: b });
  }
  const added = runs.map((r) => percentile(r.relay, 99) - percentile(r.direct, 99)).sort((a, b) => a - b);
  return {
    addedP99: added[Math.floor(added.length / 2)]!,
    runs: runs.map((r) => ({ relay_slowest: slowest(r.relay), direct_slowest: slowest(r.direct), relay_p99_ms: round(percentile(r.relay, 99), 2), direct_p99_ms: round(percentile(r.direct, 99), 2), relay_p50_ms: round(percentile(r.relay, 50), 2), direct_p50_ms: round(percentile(r.direct, 50), 2) })),
    pooledAdded: percentile(runs.flatMap((r) => r.relay), 99) - percentile(runs.flatMap((r) => r.direct), 99),
  };
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-relay-bench-'));
  const stops: Array<() => unknown> = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    const pem = certificate(dir);
    const body = Buffer.alloc(BODY_MB * 1e6, 'the quick brown fox jumps over the lazy dog 0123456789\n');
    const answer = (req: Request) => (new URL(req.url).pathname === '/bulk' ? new Response(body) : new Response('ok'));
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: answer });
    const direct = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: pem, fetch: answer });
    stops.push(() => server.stop(true), () => direct.stop(true));

    const [listen, ssh, first] = [await freePort(), await freePort(), await freeHubPorts(TUNNELS + 1)];
    const state = join(dir, 'relay');
    const relay = await serve(state, { domain: DOMAIN, listen: `127.0.0.1:${listen}`, sshListen: `127.0.0.1:${ssh}`, sshAddress: `127.0.0.1:${ssh}`, firstHubPort: first, firstCapPort: first + TUNNELS + 1, maxConnectionsPerHub: 1000 });
    stops.push(() => relay.stop());
    const rawFront = await frontChild({ state, dir, name: 'raw', hubPort: server.port!, pem });
    stops.push(rawFront.stop);
    // nginx re-reads its map on SIGHUP: give the new worker a moment.
    await Bun.sleep(500);

    if (process.env.TETHER_RELAY_BENCH_ONLY === 'echo') {
      // Quick look at the terminal echo alone (while tuning the path).
      const hubProcess = await startHubProcess({ home: join(dir, 'hub'), args: ['--allowed-host', TERMINAL_NAME] });
      stops.push(() => hubProcess.stop());
      const hub = { url: hubProcess.url, token: hubProcess.token! };
      stops.push((await frontChild({ state, dir, name: 'term', hubPort: Number(new URL(hub.url).port), pem })).stop);
      const echo = await terminalEcho({ hub, relayUrl: `https://${TERMINAL_NAME}:${listen}`, ca: pem.cert, stops });
      console.error(JSON.stringify({ added_p99_ms: round(echo.addedP99, 2), runs: echo.runs, load: loadavg()[0] }));
      return [];
    }
    if (process.env.TETHER_RELAY_BENCH_ONLY === 'raw') {
      // Quick look at the relay path alone (while tuning it): profiled rounds, nothing else.
      for (let r = 0; r < 3; r++) console.error(JSON.stringify(await profileRound({ listen, ca: pem.cert, state, frontPid: rawFront.pid })));
      return [];
    }
    const terminal = await terminalThroughput({ dir, state, relayPort: listen, pem, stops });

    const ratios: number[] = [];
    const figures: Array<{ relay: number; direct: number }> = [];
    for (let r = 0; r < ROUNDS; r++) {
      const d = await throughput(direct.port!, pem.cert);
      const v = await throughput(listen, pem.cert);
      figures.push({ relay: v, direct: d });
      ratios.push(v / d);
    }
    const profile = await profileRound({ listen, ca: pem.cert, state, frontPid: rawFront.pid });
    const echoes: Array<{ relay: number; direct: number }> = [];
    for (let r = 0; r < ECHO_RUNS; r++) {
      const d = await echoP99(direct.port!, pem.cert);
      echoes.push({ direct: d, relay: await echoP99(listen, pem.cert) });
    }
    const added = echoes.map((e) => e.relay - e.direct).sort((a, b) => a - b);

    // 99 more idle tunnels (their fronts: one in this process; nothing flows).
    // Idle: no connection reaches it, so one name and the relay's hop fingerprint do for all.
    const front = await startFront({ hub: { host: '127.0.0.1', port: server.port!, checkTarget: () => null }, peers: createPeers(), name: `idle.${DOMAIN}`, hop: fingerprintOf(readFileSync(join(state, 'hop.crt'), 'utf8')), log: () => {} });
    front.setCertificate(pem);
    stops.push(() => front.close());
    const tunnels: Tunnel[] = [];
    stops.push(() => Promise.all(tunnels.map((t) => t.close())));
    const up = async (t: { name: string; home: string }) => {
      const join_ = decodeJoin((await invite(state, t.name)).code);
      await new Promise<void>((resolve, reject) => {
        tunnels.push(keepTunnel({ join: join_, dir: t.home, frontPort: front.port, onState: (s) => (s.kind === 'up' ? resolve() : s.kind === 'down' ? reject(new Error(s.reason)) : undefined) }));
      });
    };
    for (let i = 2; i <= TUNNELS; i++) await up({ name: `idle${i}`, home: join(dir, `hub-${i}`) });
    await Bun.sleep(1_000);
    const pids = [...tree(Number(readFileSync(join(state, 'nginx.pid'), 'utf8'))), ...tree(Number(readFileSync(join(state, 'sshd.pid'), 'utf8')))];
    const rssMb = pids.reduce((sum, pid) => sum + memoryKb(pid, 'Rss'), 0) / 1024;
    const pssMb = pids.reduce((sum, pid) => sum + memoryKb(pid, 'Pss'), 0) / 1024;

    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
    return [
      { name: 'relay_throughput_ratio', value: round(terminal.ratio, 3), unit: 'ratio', target: '>= 0.8', rounds: terminal.figures.map((f) => ({ relay_mb_s: round(f.relay, 1), direct_mb_s: round(f.direct, 1), every_byte: f.whole })), terminal_mb: TERMINAL_MB, resyncs: terminal.resyncs, pairs_with_every_byte: terminal.wholePairs, load: loadavg()[0] },
      { name: 'relay_raw_throughput_ratio', value: round(median, 3), unit: 'ratio', rounds: figures.map((f) => ({ relay_mb_s: round(f.relay, 1), direct_mb_s: round(f.direct, 1) })), body_mb: BODY_MB, profile },
      { name: 'relay_echo_added_ms_p99', value: round(terminal.echo.addedP99, 3), unit: 'ms', target: '<= 2', what: 'keys to cat in a runner PTY, echo at the viewer: relay p99 - direct p99, median of alternated runs', runs: terminal.echo.runs, pooled_added_ms: round(terminal.echo.pooledAdded, 3), keys_per_run: ECHO_KEYS_PER_RUN, load: loadavg()[0] },
      { name: 'relay_raw_echo_added_ms_p99', value: round(added[Math.floor(ECHO_RUNS / 2)]!, 3), unit: 'ms', runs: echoes.map((e) => ({ relay_p99_ms: round(e.relay, 3), direct_p99_ms: round(e.direct, 3) })), round_trips: ECHOES },
      { name: 'relay_rss_mb_100_tunnels', value: round(rssMb, 1), unit: 'MB', pss_mb: round(pssMb, 1), processes: pids.length, tunnels: tunnels.length + 2 },
    ];
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => {});
  }
}
