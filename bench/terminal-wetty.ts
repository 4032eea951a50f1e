// terminal-wetty.ts: WeTTY (npm `wetty`) measured beside tether on the same machine, with the same
// command and key counts. It is installed into a temp dir from the npm registry at bench time
// (npm runs no install scripts unless allowed; node-pty then needs a local build with the local
// node headers). Anything that stops it becomes an entry with "error" saying why: never a made-up
// number.
//
//   this process ──socket.io (path /socket.io): input, commit──► WeTTY (node) ──node-pty──► command
//                ◄──────────────────── data (strings) ─────────┘
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { typeKeys } from './echo-keys.ts';

type Measurement = { name: string; value: number; unit: string } & Record<string, unknown>;

const WETTY_VERSION = '3.2.0';
/** npm install bound: a cold install here takes ~10 s; a build of node-pty up to a minute. */
const INSTALL_TIMEOUT_MS = 240_000;
const START_TIMEOUT_MS = 20_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startWetty(options: { dir: string; command: string }): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const main = join(options.dir, 'node_modules', 'wetty', 'build', 'main.js');
  const child = spawn('node', [main, '--host', '127.0.0.1', '--port', String(port), '--command', options.command], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`WeTTY did not start: ${out.slice(-500)}`)), START_TIMEOUT_MS);
    const on = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Server started')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`WeTTY exited (${code}): ${out.slice(-500)}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

async function connect(url: string): Promise<Socket> {
  const socket = io(url, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('login', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

export async function measureWetty(options: { throughputMb: number; echoKeys: number; /** Keys typed first, as on tether's paths. */ warmupKeys: number }): Promise<Measurement[]> {
  const fail = (why: string): Measurement[] => [
    { name: 'wetty_throughput_mb_s', value: Number.NaN, unit: 'MB/s', error: why },
    { name: 'wetty_echo_ms_p99', value: Number.NaN, unit: 'ms', error: why },
  ];
  if (process.getuid?.() !== 0) return fail('WeTTY runs a local command only as root; otherwise it logs in over ssh, which this machine does not offer');
  const dir = mkdtempSync(join(tmpdir(), 'tether-bench-wetty-'));
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];
  try {
    const install = spawnSync('npm', ['install', `wetty@${WETTY_VERSION}`, '--no-audit', '--no-fund', '--prefix', dir], { encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
    if (install.status !== 0) return fail(`npm install wetty@${WETTY_VERSION} failed: ${(install.stderr || install.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`);
    if (!existsSync(join(dir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'))) {
      return fail('wetty installed, but its node-pty has no native build for this platform (npm did not run its install script, and no prebuild exists for linux)');
    }

    // ---- throughput: the same bytes tether's bench prints, after a line arrives
    const script = join(dir, 'print.sh');
    writeFileSync(script, `stty -echo; read go; yes 'the quick brown fox jumps over the lazy dog 0123456789 ABCDEFGHIJ' | head -c ${options.throughputMb * 1e6}; read x\n`);
    const big = await startWetty({ dir, command: `sh ${script}` });
    children.push(big.child);
    const viewer = await connect(big.url);
    sockets.push(viewer);
    let received = 0;
    const want = options.throughputMb * 1e6;
    const done = new Promise<void>((resolve) =>
      viewer.on('data', (data: string) => {
        received += Buffer.byteLength(data);
        // WeTTY's flow control: the client commits what it has processed.
        viewer.emit('commit', data.length);
        if (received >= want) resolve();
      }),
    );
    await new Promise((r) => setTimeout(r, 300)); // let `stty -echo` run before the go line
    received = 0;
    const t0 = performance.now();
    viewer.emit('input', 'go\r');
    await done;
    const throughput = received / 1e6 / ((performance.now() - t0) / 1000);

    // ---- echo: keys to cat, one at a time
    const cat = await startWetty({ dir, command: 'cat' });
    children.push(cat.child);
    const typist = await connect(cat.url);
    sockets.push(typist);
    const { warm: samples, cold } = await typeKeys({
      keys: options.echoKeys,
      warmup: options.warmupKeys,
      key: async () => {
        const t = performance.now();
        const echoed = new Promise<void>((resolve) => {
          const on = (data: string) => {
            typist.emit('commit', data.length);
            if (data.includes('x')) {
              typist.off('data', on);
              resolve();
            }
          };
          typist.on('data', on);
        });
        typist.emit('input', 'x');
        await echoed;
        return performance.now() - t;
      },
    });
    return [
      { name: 'wetty_throughput_mb_s', value: Math.round(throughput * 100) / 100, unit: 'MB/s', version: WETTY_VERSION },
      { name: 'wetty_echo_ms_p50', value: Math.round(percentile(samples, 50) * 100) / 100, unit: 'ms', version: WETTY_VERSION },
      { name: 'wetty_echo_ms_p99', value: Math.round(percentile(samples, 99) * 100) / 100, unit: 'ms', version: WETTY_VERSION, warmup_keys: options.warmupKeys },
      ...(cold.length > 0 ? [{ name: 'wetty_echo_cold_ms_p99', value: Math.round(percentile(cold, 99) * 100) / 100, unit: 'ms', version: WETTY_VERSION }] : []),
    ];
  } catch (error) {
    return fail(`WeTTY could not be measured: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const s of sockets) s.close();
    for (const c of children) c.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
