// echo-trace.ts: the terminal bench's echo alone, hop by hop (`bun bench/echo-trace.ts [rounds]`).
// Alternates relay (viewer → hub → runner → PTY → runner → hub → viewer), direct (this process
// reads the PTY) and WeTTY (if WETTY_DIR holds an installed wetty@3.2.0: `npm i wetty@3.2.0
// --prefix DIR`) per round, 1,000 keys each, and prints each round's p50/p99 and their medians.
// With ECHO_TRACE=1 the hub and runner append each hop's time to a file (TETHER_ECHO_TRACE, see
// hub/src/terminal/echo-trace.ts) and this prints where the time went, for all keys and for the
// slowest 2 %. ECHO_QUIET=N adds N keys each typed after the runner went quiet (> 3 s).
// ECHO_WARMUP=N types N keys on each path first, uncounted (the JIT's warm-up: see
// terminal.bench.ts, ECHO_WARMUP_KEYS); by default none, so the rounds show it settle.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { spawnPty } from '../cli/src/pty/pty.ts';
import { startHubProcess } from '../tests/harness/hub.ts';
import { startCommandRunner, viewTerminal } from '../tests/harness/terminal.ts';

const ROUNDS = Number(process.argv[2] ?? 5);
const KEYS = Number(process.env.ECHO_KEYS ?? 1000);
const QUIET_KEYS = Number(process.env.ECHO_QUIET ?? 0);
const WARMUP_KEYS = Number(process.env.ECHO_WARMUP ?? 0);
const WETTY_DIR = process.env.WETTY_DIR;
const home = mkdtempSync(join(tmpdir(), 'tether-echo-trace-'));
const traceFile = process.env.ECHO_TRACE ? join(home, 'trace.txt') : undefined;
const mark = (hop: string) => traceFile && appendFileSync(traceFile, `${hop} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const median = (xs: number[]) => pct(xs, 50);
const r2 = (x: number) => Math.round(x * 100) / 100;

async function startWetty(dir: string): Promise<{ socket: Socket; child: ChildProcess }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn('node', [join(dir, 'node_modules/wetty/build/main.js'), '--host', '127.0.0.1', '--port', String(port), '--command', 'cat'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const on = (d: Buffer) => ((out += d.toString()), out.includes('Server started') && resolve());
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', () => reject(new Error(out)));
  });
  const socket = io(`http://127.0.0.1:${port}`, { path: '/socket.io', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve) => socket.once('login', () => resolve()));
  return { socket, child };
}

const hubProcess = await startHubProcess({ home, ...(traceFile ? { env: { TETHER_ECHO_TRACE: traceFile } } : {}) });
const hub = { url: hubProcess.url, token: hubProcess.token! };
const runner = startCommandRunner({ hub, command: 'exec cat', ...(traceFile ? { env: { TETHER_ECHO_TRACE: traceFile } } : {}) });
const typist = await viewTerminal({ url: hub.url, token: hub.token, sessionId: runner.sessionId, render: false });
await typist.waitFor(() => typist.snapshots() > 0, 'first snapshot');
const pty = spawnPty({ file: '/bin/cat', args: [], cwd: tmpdir(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm-256color' }, cols: 120, rows: 40 });
const wetty = WETTY_DIR ? await startWetty(WETTY_DIR) : null;

async function relayKey(): Promise<number> {
  const at = typist.offset();
  mark('view_send');
  const t0 = performance.now();
  typist.socket.emit('terminal:input', { sessionId: runner.sessionId, data: 'x' });
  await typist.waitFor(() => typist.offset() > at, 'echo');
  const ms = performance.now() - t0;
  mark('view_recv');
  return ms;
}
async function directKey(): Promise<number> {
  const t0 = performance.now();
  const got = new Promise<void>((resolve) => {
    const off = pty.onData(({ data }) => data.includes(0x78) && (off(), resolve()));
  });
  pty.write('x');
  await got;
  return performance.now() - t0;
}
async function wettyKey(): Promise<number> {
  const { socket } = wetty!;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const on = (data: string) => {
      socket.emit('commit', data.length);
      if (data.includes('x')) socket.off('data', on), resolve();
    };
    socket.on('data', on);
    socket.emit('input', 'x');
  });
  return performance.now() - t0;
}

const sides: Array<[string, () => Promise<number>]> = [['relay', relayKey], ['direct', directKey], ...(wetty ? [['wetty', wettyKey] as [string, () => Promise<number>]] : [])];
const results = new Map<string, Array<{ p50: number; p99: number }>>(sides.map(([n]) => [n, []]));
for (const [, key] of sides) for (let i = 0; i < WARMUP_KEYS; i++) await key();
const relayAll: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
  const line: string[] = [];
  for (const [name, key] of order) {
    if (traceFile && name === 'relay') writeFileSync(traceFile, '');
    const samples: number[] = [];
    for (let i = 0; i < KEYS; i++) samples.push(await key());
    if (name === 'relay') relayAll.push(...samples);
    results.get(name)!.push({ p50: pct(samples, 50), p99: pct(samples, 99) });
    line.push(`${name} ${r2(pct(samples, 50))}/${r2(pct(samples, 99))}`);
    if (traceFile && name === 'relay') analyse(readFileSync(traceFile, 'utf8'));
  }
  console.log(`round ${round + 1} (load ${(await Bun.file('/proc/loadavg').text()).split(' ')[0]}): ${line.join('  ')}`);
}
for (const [name, rs] of results) console.log(`median ${name}: p50 ${r2(median(rs.map((r) => r.p50)))} p99 ${r2(median(rs.map((r) => r.p99)))}  (p99s ${rs.map((r) => r2(r.p99)).join(', ')})`);
const rel = results.get('relay')!;
const dir = results.get('direct')!;
console.log(`relay p99 − direct p99 per round: ${rel.map((r, i) => r2(r.p99 - dir[i]!.p99)).join(', ')}; median ${r2(median(rel.map((r, i) => r.p99 - dir[i]!.p99)))}`);
if (wetty) console.log(`relay p99 − wetty p99 per round: ${rel.map((r, i) => r2(r.p99 - results.get('wetty')![i]!.p99)).join(', ')}`);

if (QUIET_KEYS > 0) {
  const quiet: number[] = [];
  if (traceFile) writeFileSync(traceFile, '');
  for (let i = 0; i < QUIET_KEYS; i++) {
    await new Promise((r) => setTimeout(r, 3600));
    quiet.push(await relayKey());
  }
  console.log(`after quiet (> 3 s, n=${QUIET_KEYS}): relay p50 ${r2(median(quiet))} max ${r2(Math.max(...quiet))}  samples ${quiet.map(r2).join(' ')}`);
  if (traceFile) analyse(readFileSync(traceFile, 'utf8'));
}

/** Per key: each hop's time since the previous hop, then where the slowest 2 % spent theirs. */
function analyse(text: string) {
  const keys: Array<Map<string, number>> = [];
  let cur: Map<string, number> | null = null;
  for (const line of text.split('\n')) {
    const [hop, t] = line.split(' ');
    if (!hop || !t) continue;
    if (hop === 'view_send') keys.push((cur = new Map([[hop, Number(t)]])));
    else if (cur && !cur.has(hop)) cur.set(hop.startsWith('run_wake') ? 'run_wake' : hop, Number(t)), hop.startsWith('run_wake') && cur.set(`@${hop}`, 0);
    if (hop === 'view_recv') cur = null;
  }
  const order = ['view_send', 'hub_in', 'hub_checked', 'hub_fwd', 'run_in', 'run_written', 'run_read', 'run_emit', 'hub_out', 'hub_sent', 'view_recv'];
  const whole = keys.filter((k) => order.every((h) => k.has(h)));
  const spans = (k: Map<string, number>) => order.slice(1).map((h, i) => k.get(h)! - k.get(order[i]!)!);
  const total = (k: Map<string, number>) => k.get('view_recv')! - k.get('view_send')!;
  const slow = [...whole].sort((a, b) => total(b) - total(a)).slice(0, Math.max(1, Math.round(whole.length * 0.02)));
  const row = (label: string, set: Array<Map<string, number>>, f: (xs: number[]) => number) =>
    `${label.padEnd(14)}${order.slice(1).map((_, i) => r2(f(set.map((k) => spans(k)[i]!))).toFixed(2).padStart(8)).join('')}${r2(f(set.map(total))).toFixed(2).padStart(8)}`;
  console.log(`  trace (${whole.length}/${keys.length} keys), ms since the previous hop:`);
  console.log(`${''.padEnd(14)}${order.slice(1).map((h) => h.padStart(8).slice(-8)).join('')}   total`);
  console.log(row('p50', whole, (xs) => pct(xs, 50)));
  console.log(row('p99', whole, (xs) => pct(xs, 99)));
  console.log(row('slowest 2% avg', slow, (xs) => xs.reduce((a, b) => a + b, 0) / xs.length));
  const wakes = new Map<string, number>();
  for (const k of slow) for (const h of k.keys()) if (h.startsWith('@')) wakes.set(h, (wakes.get(h) ?? 0) + 1);
  const allWakes = new Map<string, number>();
  for (const k of whole) for (const h of k.keys()) if (h.startsWith('@')) allWakes.set(h, (allWakes.get(h) ?? 0) + 1);
  console.log(`  read loop at the key: all ${JSON.stringify(Object.fromEntries(allWakes))}; slowest ${JSON.stringify(Object.fromEntries(wakes))}`);
}

typist.stop();
await runner.stop();
await pty.stop();
wetty?.socket.close();
wetty?.child.kill('SIGKILL');
await hubProcess.stop();
if (process.env.ECHO_KEEP) console.log(readFileSync(traceFile!, "utf8").slice(0, 1500));
rmSync(home, { recursive: true, force: true });
process.exit(0);
