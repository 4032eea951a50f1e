// hub.bench.ts: hub numbers for `bun run bench` (bench/run.ts imports run()).
//   hub_message_ingest: chat messages/s one /cli socket pushes through `message:append` into SQLite,
//     waiting for each ack (what a runner's outbox does), against a real `tether hub` process.
//     value = batches of 1 (the worst case: one ack round trip + one transaction per message);
//     batch50_msgs_per_s is the same with 50 messages per event.
//   hub_rss_idle_mb: resident memory of a freshly started `tether hub` process, idle.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { connectSocket, emitAck, makeTempHome, startHubProcess } from '../tests/harness/hub.ts';

/** Enough messages that start-up noise is < 1% of the run, small enough for a CI minute. */
const INGEST_MESSAGES = 20_000;
const BIG_BATCH = 50;
/** Let start-up allocations settle (JIT, GC) before reading the idle RSS. */
const IDLE_SETTLE_MS = 1500;

export type BenchResult = { name: string; value: number; unit: string; [extra: string]: unknown };

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** ~250 bytes of JSON per message: a short assistant reply, as most transcript lines are. */
function message(i: number) {
  return {
    id: `bench-${i}`,
    role: 'assistant',
    content: [{ type: 'text', text: `Message ${i}: I read the file and the function returns early when the list is empty.` }],
    createdAt: Date.now(),
  };
}

async function ingest(options: { url: string; token: string; batch: number; total: number }): Promise<number> {
  const socket = await connectSocket({ url: options.url, nsp: '/cli', token: options.token });
  try {
    const sessionId = randomUUID();
    const reg = await emitAck(socket, 'session:register', { id: sessionId, cwd: '/bench', launchKind: 'headless' });
    if (!reg.ok) throw new Error(`register failed: ${reg.error}`);
    // Warm-up outside the timed window (JIT, prepared statements).
    await emitAck(socket, 'message:append', { sessionId, messages: [message(-1)] });
    const started = performance.now();
    for (let i = 0; i < options.total; i += options.batch) {
      const messages = Array.from({ length: Math.min(options.batch, options.total - i) }, (_, k) => message(i + k));
      const ack = await emitAck<{ added: number }>(socket, 'message:append', { sessionId, messages });
      if (!ack.ok || ack.added !== messages.length) throw new Error(`append failed at ${i}: ${JSON.stringify(ack)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    return Math.round(options.total / seconds);
  } finally {
    socket.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  let idleResult: BenchResult;
  const idleHome = makeTempHome('tether-bench-idle-');
  const idle = await startHubProcess({ home: idleHome });
  try {
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const mb = rssMb(idle.child.pid!);
    idleResult = { name: 'hub_rss_idle_mb', value: mb, unit: 'MB', note: 'fresh `tether hub` process, no clients, after start-up settled' };
  } finally {
    await idle.stop();
    rmSync(idleHome, { recursive: true, force: true });
  }

  const home = makeTempHome('tether-bench-ingest-');
  const hub = await startHubProcess({ home });
  try {
    const token = hub.token!;
    const single = await ingest({ url: hub.url, token, batch: 1, total: INGEST_MESSAGES });
    const batched = await ingest({ url: hub.url, token, batch: BIG_BATCH, total: INGEST_MESSAGES });
    // hub_message_ingest first: the issue names it the first entry.
    return [{
      name: 'hub_message_ingest',
      value: single,
      unit: 'msg/s',
      mode: 'value = batch of 1, sequential, each emit waits for its ack (one SQLite transaction per message)',
      messages: INGEST_MESSAGES,
      batch1_msgs_per_s: single,
      [`batch${BIG_BATCH}_msgs_per_s`]: batched,
      rss_after_ingest_mb: rssMb(hub.child.pid!),
    }, idleResult];
  } finally {
    await hub.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  for (const result of await run()) console.log(JSON.stringify(result));
}
