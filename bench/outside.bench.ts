// outside.bench.ts: conversations found on a machine (issue 40), what listing and finding them costs.
//
//   outside_list_5000_ms: a machine with 5,000 found conversations in the hub's index (SQLite, the
//     default store); the median answer time of GET /api/machines/:id/outside (the first page of 50,
//     newest first, counted), over ROUNDS requests after a warm-up. Target ≤ 200 ms.
//   outside_search_5000_ms: the same with a search (`q`, over title and folder).
//   outside_daemon_idle_cpu_ms: a real `tether daemon --outside` on a home holding DAEMON_FILES claude
//     transcripts and Codex rollouts, after its first report: CPU time (utime + stime of every
//     thread, from /proc schedstat) over IDLE_MS idle seconds. Target ≤ 50 ms per 60 s.
//   outside_daemon_idle_processes: processes the daemon started while idle (its children). Target 0.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutsideEntry } from '@tether/shared';
import { startHub } from '../tests/harness/hub.ts';
import { TETHER_MAIN } from '../tests/harness/desk.ts';
import { codexBin } from '../tests/harness/codex.ts';
import { threadNs } from './idle.bench.ts';

const ENTRIES = 5_000;
const ROUNDS = 40;
const WARMUP = 5;
const IDLE_MS = 60_000;
const DAEMON_FILES = 500;
const MACHINE = '0b5e55ed-0000-4000-8000-00000000b0b0';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const uuid = (i: number) => `${i.toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

async function timeRequests(url: string, token: string): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total: number };
    if (res.status !== 200 || typeof body.total !== 'number') throw new Error(`list answered ${res.status}`);
    if (i >= WARMUP) samples.push(performance.now() - started);
  }
  return median(samples);
}

async function listBench() {
  const hub = await startHub();
  try {
    await hub.store.upsertMachine({ namespace: hub.namespace, machine: { id: MACHINE, name: 'box', os: 'linux', user: 'me', home: '/home/me', outside: true }, now: Date.now() });
    const entries: OutsideEntry[] = Array.from({ length: ENTRIES }, (_, i) => ({
      agent: (['claude', 'codex', 'gemini'] as const)[i % 3]!,
      agentSessionId: uuid(i + 1),
      folder: `/home/me/projects/app-${i % 97}`,
      title: `conversation ${i}: ${'fix the flaky build and then '.repeat(6)}`.slice(0, 200),
      lastActivity: 1_790_000_000_000 + i * 1000,
      sizeBytes: 10_000 + i,
      live: false,
    }));
    for (let i = 0; i < entries.length; i += 500) {
      await hub.store.recordOutside({ namespace: hub.namespace, machineId: MACHINE, entries: entries.slice(i, i + 500), removed: [], sweepBefore: null, now: Date.now() });
    }
    const base = `${hub.url}/api/machines/${MACHINE}/outside`;
    return [
      { name: 'outside_list_5000_ms', value: Math.round((await timeRequests(`${base}?limit=50`, hub.token)) * 100) / 100, unit: 'ms', target: 200 },
      { name: 'outside_search_5000_ms', value: Math.round((await timeRequests(`${base}?limit=50&q=app-42`, hub.token)) * 100) / 100, unit: 'ms', target: 200 },
    ];
  } finally {
    await hub.stop();
  }
}

/** A home with claude transcripts and Codex rollouts, aged past the live window. */
function foundHome(root: string) {
  const old = (Date.now() - 3_600_000) / 1000;
  for (let i = 0; i < DAEMON_FILES; i++) {
    const id = uuid(i + 1);
    if (i % 2 === 0) {
      const dir = join(root, '.claude', 'projects', `-home-me-app-${i % 25}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${id}.jsonl`), `${JSON.stringify({ type: 'user', cwd: `/home/me/app-${i % 25}`, sessionId: id, message: { role: 'user', content: `task ${i}` } })}\n`);
      utimesSync(join(dir, `${id}.jsonl`), old, old);
    } else {
      const dir = join(root, '.codex', 'sessions', '2026', '12', String(1 + (i % 5)).padStart(2, '0'));
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `rollout-2026-12-0${1 + (i % 5)}T00-00-00-${id}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ type: 'session_meta', payload: { id, cwd: `/home/me/app-${i % 25}` } })}\n`);
      utimesSync(file, old, old);
    }
  }
}

/** utime + stime in ms (10 ms ticks: the whole process, ended threads included). */
function cpuTicksMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function childrenOf(pid: number): number {
  let count = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      count += readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).length;
    } catch {
      // thread gone
    }
  }
  return count;
}

async function daemonBench() {
  const hub = await startHub();
  const root = mkdtempSync(join(tmpdir(), 'tether-outside-bench-'));
  foundHome(root);
  const env = { PATH: process.env.PATH ?? '', HOME: root, TETHER_HOME: join(root, '.tether'), TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, CLAUDE_CONFIG_DIR: join(root, '.claude'), CODEX_HOME: join(root, '.codex'), TETHER_CODEX_BIN: codexBin() };
  const child = spawn(process.execPath, [TETHER_MAIN, 'daemon', '--outside', '--name', 'bench'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 30_000;
    // Its first report reached the hub: every file listed.
    for (;;) {
      const machines = await hub.store.listMachines({ namespace: hub.namespace });
      const machine = machines[0];
      const listed = machine ? (await hub.store.listOutside({ namespace: hub.namespace, machineId: machine.id, q: '', offset: 0, limit: 1 })).total : 0;
      if (listed >= DAEMON_FILES) break;
      if (Date.now() > deadline) throw new Error(`the daemon listed ${listed} of ${DAEMON_FILES}:\n${out}`);
      await Bun.sleep(200);
    }
    await Bun.sleep(3_000);
    const pid = child.pid!;
    const before = threadNs(pid);
    const ticksBefore = cpuTicksMs(pid);
    let started = 0;
    const end = Date.now() + IDLE_MS;
    while (Date.now() < end) {
      started = Math.max(started, childrenOf(pid));
      await Bun.sleep(500);
    }
    let ranNs = 0;
    for (const [tid, ns] of threadNs(pid)) ranNs += ns - (before.get(tid) ?? 0);
    const ticksMs = cpuTicksMs(pid) - ticksBefore;
    return [
      { name: 'outside_daemon_idle_cpu_ms', value: Math.round((ranNs / 1e6) * 10) / 10, unit: 'ms', per: '60 s', files: DAEMON_FILES, ticks_ms: ticksMs, target: 50 },
      { name: 'outside_daemon_idle_processes', value: started, unit: 'processes', target: 0 },
    ];
  } finally {
    child.kill('SIGTERM');
    await hub.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function run() {
  return [...(await listBench()), ...(await daemonBench())];
}
