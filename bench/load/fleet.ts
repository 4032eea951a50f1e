// fleet.ts: the parent side of a load run: a hub in a child process (hub-child.ts) and the fake
// sessions spread over generator processes (generator.ts), so /proc numbers of the hub are its own.
//
//   bench ─► startHubChild ─► bun hub-child.ts ─► { pid, url, tokens }
//   bench ─► startLoad ─► W × bun generator.ts ─start─► sessions connect (staggered) ─► started
//   bench ─► load.window(ms) ─► window-begin … wait … window-end ─► merged samples
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startIpcWorker, stopIpcWorkers } from '../ipc-workers.ts';
import type { GeneratorReply, GeneratorRequest, LoadRates, SessionSpec, WindowSamples } from './generator.ts';

const HUB_CHILD = join(import.meta.dir, 'hub-child.ts');
const GENERATOR = join(import.meta.dir, 'generator.ts');
const HUB_START_TIMEOUT_MS = 30_000;

/** The issue's workload: 1 KB/s of terminal output in ~100-byte chunks, a chat message every 10 s,
 *  an approval every 60 s. */
export const ISSUE_RATES: LoadRates = { chunkBytes: 100, chunkEveryMs: 100, chatEveryMs: 10_000, approvalEveryMs: 60_000 };

export type HubChild = { pid: number; url: string; tokens: string[]; output(): string; stop(): Promise<void> };

/** A hub in its own process with `namespaces` tenants. `bunFlags` e.g. ['--cpu-prof', '--cpu-prof-dir=…'].
 *  With `databaseUrl` it is one hub of a cluster (the others get `namespaces: 0` and the same home
 *  while the cluster's store still lives there). */
export async function startHubChild(options: { namespaces: number; bunFlags?: string[]; terminalLogBytes?: number; databaseUrl?: string; home?: string }): Promise<HubChild> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'tether-scale-hub-'));
  const proc = Bun.spawn([process.execPath, ...(options.bunFlags ?? []), HUB_CHILD], {
    env: { ...process.env, SCALE_HUB_HOME: home, SCALE_NAMESPACES: String(options.namespaces), NO_COLOR: '1', ...(options.terminalLogBytes ? { SCALE_TERMINAL_LOG_BYTES: String(options.terminalLogBytes) } : {}),
      ...(options.databaseUrl ? { SCALE_DATABASE_URL: options.databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", process.env.SCALE_HUB_MEMLOG ? "inherit" : "pipe"],
  });
  let out = '';
  let err = '';
  void (async () => {
    if (proc.stderr instanceof ReadableStream) for await (const chunk of proc.stderr) err += new TextDecoder().decode(chunk);
  })();
  const ready = await new Promise<{ url: string; tokens: string[] }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`hub child did not start:\n${out}\n${err}`)), HUB_START_TIMEOUT_MS);
    void (async () => {
      for await (const chunk of proc.stdout) {
        out += new TextDecoder().decode(chunk);
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line && out.includes('\n')) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { url: string; tokens: string[] });
        }
      }
    })();
    void proc.exited.then((code) => reject(new Error(`hub child exited (${code}):\n${out}\n${err}`)));
  });
  return {
    pid: proc.pid,
    url: ready.url,
    tokens: ready.tokens,
    output: () => out + err,
    async stop() {
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await proc.exited;
      clearTimeout(timer);
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

export type Load = {
  pids: number[];
  sessions: number;
  failed: number;
  firstError: string | null;
  /** Clears the samples, waits `ms`, returns what every generator saw in that time. */
  window(ms: number, during?: () => void): Promise<WindowSamples>;
  stop(): Promise<void>;
};

/** `sessions` fake sessions (session i in namespace i / perNamespace) over `workers` processes,
 *  started `rampMs` apart in total (each worker spaces its own by rampMs / sessions × workers). */
export async function startLoad(options: {
  url: string;
  tokens: string[];
  sessions: number;
  perNamespace: number;
  workers: number;
  rampMs: number;
  rates?: LoadRates;
}): Promise<Load> {
  const specs: SessionSpec[] = Array.from({ length: options.sessions }, (_, i) => ({
    sessionId: crypto.randomUUID(),
    token: options.tokens[Math.floor(i / options.perNamespace)]!,
  }));
  const workers = Array.from({ length: options.workers }, () => startIpcWorker<GeneratorRequest, GeneratorReply>(GENERATOR));
  const spacingMs = (options.rampMs / Math.max(1, options.sessions)) * options.workers;
  const started = (await Promise.all(
    workers.map((w, k) =>
      w.ask({
        type: 'start',
        url: options.url,
        sessions: specs.filter((_, i) => i % options.workers === k),
        spacingMs,
        rates: options.rates ?? ISSUE_RATES,
      }),
    ),
  )) as Array<Extract<GeneratorReply, { type: 'started' }>>;
  return {
    pids: workers.map((w) => w.proc.pid),
    sessions: started.reduce((a, r) => a + r.sessions, 0),
    failed: started.reduce((a, r) => a + r.failed, 0),
    firstError: started.find((r) => r.firstError)?.firstError ?? null,
    async window(ms, during) {
      await Promise.all(workers.map((w) => w.ask({ type: 'window-begin' })));
      await Bun.sleep(ms);
      during?.();
      const replies = (await Promise.all(workers.map((w) => w.ask({ type: 'window-end' })))) as Array<Extract<GeneratorReply, { type: 'window' }>>;
      return mergeSamples(replies.map((r) => r.samples));
    },
    async stop() {
      await stopIpcWorkers(workers, { stop: { type: 'stop' } satisfies GeneratorRequest, graceMs: 10_000 });
    },
  };
}

function mergeSamples(all: WindowSamples[]): WindowSamples {
  return {
    chatLagMs: all.flatMap((s) => s.chatLagMs),
    approvalMs: all.flatMap((s) => s.approvalMs),
    terminalBytes: all.reduce((a, s) => a + s.terminalBytes, 0),
    misplaced: all.reduce((a, s) => a + s.misplaced, 0),
    chatMissing: all.reduce((a, s) => a + s.chatMissing, 0),
    approvalsMissing: all.reduce((a, s) => a + s.approvalsMissing, 0),
    errors: all.flatMap((s) => s.errors).slice(0, 10),
    disconnects: all.reduce((a, s) => a + s.disconnects, 0),
  };
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
