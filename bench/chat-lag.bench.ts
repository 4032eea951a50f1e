// chat-lag.bench.ts: how long a line claude appends to its transcript takes to reach a phone.
//
//   appendFileSync(transcript) ─► tailTranscript ─► parseTranscriptLines ─► hub-link outbox ─► /cli
//        ─► hub (in process, real sockets, SQLite) ─► /web message:added ─► measured here
//
// One line at a time (the next is appended only after the previous arrived), so each sample is the
// full path's latency and not queueing behind earlier samples. Samples alternate: half are followed by
// the read the runner does when claude's hook arrives (UserPromptSubmit, PostToolUse, Stop: poke()),
// as in a real session (chat_lag_ms_*); the other half rely on fs.watch and the fallback poll alone
// (chat_lag_unhooked_ms_p99: a line no hook announces).
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatMessage } from '@tether/shared';
import { startHub } from '../tests/harness/hub.ts';
import { watchSession } from '../tests/harness/runner.ts';
import { openOutbox } from '../cli/src/hub-link/outbox.ts';
import { connectHubLink } from '../cli/src/hub-link/link.ts';
import { tailTranscript } from '../cli/src/transcript/tail.ts';
import { parseTranscriptLines } from '../cli/src/agents/claude/transcript/parse.ts';

/** 250 samples: enough for a stable p99 (the 3rd-worst sample), short enough for a bench run. */
const SAMPLES = 250;
const WARMUP = 10;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export async function run(): Promise<Array<{ name: string; value: number; unit: string }>> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-chat-lag-'));
  const hub = await startHub();
  const sessionId = crypto.randomUUID();
  const agentSessionId = crypto.randomUUID();
  const transcript = join(dir, `${agentSessionId}.jsonl`);
  writeFileSync(transcript, '');
  const outbox = openOutbox({ dir: join(dir, 'outbox'), sessionId });
  const link = connectHubLink({
    hubUrl: hub.url,
    token: hub.token,
    sessionId,
    outbox,
    registration: () => ({ id: sessionId, cwd: dir, launchKind: 'pty', status: 'idle' }),
    commands: {},
  });
  const tail = tailTranscript({
    path: transcript,
    onLines: (lines) => {
      const messages = parseTranscriptLines(lines);
      if (messages.length > 0) link.push('message:append', { sessionId, messages });
    },
  });
  const phone = await watchSession({ hub, sessionId });
  const arrived = new Map<string, number>();
  let wake: (() => void) | null = null;
  phone.socket.on('message:added', (payload: { messages: ChatMessage[] }) => {
    const now = performance.now();
    for (const m of payload.messages) arrived.set(m.id, now);
    wake?.();
  });
  const lags: number[] = [];
  const unhooked: number[] = [];
  try {
    for (let i = 0; i < SAMPLES + WARMUP; i++) {
      const uuid = crypto.randomUUID();
      const line = JSON.stringify({
        type: 'user',
        uuid,
        parentUuid: null,
        sessionId: agentSessionId,
        timestamp: new Date().toISOString(),
        isSidechain: false,
        userType: 'external',
        message: { role: 'user', content: `sample ${i}` },
      });
      const started = performance.now();
      appendFileSync(transcript, `${line}\n`);
      const hooked = i % 2 === 0;
      if (hooked) void tail.poke();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`sample ${i} never arrived`)), 10_000);
        wake = () => {
          if (arrived.has(uuid)) {
            clearTimeout(timer);
            resolve();
          }
        };
        wake();
      });
      if (i >= WARMUP) (hooked ? lags : unhooked).push(arrived.get(uuid)! - started);
    }
  } finally {
    tail.stop();
    phone.stop();
    link.stop();
    outbox.destroy();
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  lags.sort((a, b) => a - b);
  unhooked.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return [
    { name: 'chat_lag_ms_p50', value: round(percentile(lags, 50)), unit: 'ms' },
    { name: 'chat_lag_ms_p99', value: round(percentile(lags, 99)), unit: 'ms' },
    { name: 'chat_lag_unhooked_ms_p99', value: round(percentile(unhooked, 99)), unit: 'ms' },
  ];
}
