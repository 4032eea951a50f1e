// terminal-fanout-worker.ts: a child process of terminal.bench.ts holding some of the fan-out
// viewers, so that decoding 100 sockets' worth of bytes is spread over processes and the bench
// measures the hub, not itself. Driven over Bun IPC:
//
//   parent ──{join}──► here: N viewers subscribe (no rendering) ──{joined}──► parent
//   parent ──{arm}──► here: note every viewer's offset ──{armed}──► parent (all workers, then:)
//   parent ──{measure}──► here: (trigger: viewer 0 types "go") ──{done: when each reached +bytes}──► parent
//
// Times are absolute (performance.timeOrigin + now), so the parent compares them across processes.
import { viewTerminal, type TerminalViewer } from '../tests/harness/terminal.ts';

export type WorkerRequest =
  | { type: 'join'; url: string; token: string; sessionId: string; count: number }
  | { type: 'arm' }
  | { type: 'measure'; id: number; bytes: number; trigger: boolean }
  | { type: 'stop' };
export type WorkerReply =
  | { type: 'joined' }
  | { type: 'armed' }
  | { type: 'done'; id: number; startedAt: number | null; doneAt: number[]; resyncs: number }
  | { type: 'error'; message: string };

const now = () => performance.timeOrigin + performance.now();
const send = (reply: WorkerReply) => process.send!(reply);
let viewers: TerminalViewer[] = [];
let sessionId = '';
let starts: number[] = [];
let snapshots = 0;

process.on('message', (raw) => {
  const request = raw as WorkerRequest;
  void handle(request).catch((error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'join') {
    sessionId = request.sessionId;
    for (let i = 0; i < request.count; i++) {
      const v = await viewTerminal({ url: request.url, token: request.token, sessionId, render: false });
      await v.waitFor(() => v.snapshots() > 0, 'first snapshot');
      viewers.push(v);
    }
    send({ type: 'joined' });
  } else if (request.type === 'arm') {
    starts = viewers.map((v) => v.offset());
    snapshots = viewers.reduce((a, v) => a + v.snapshots(), 0);
    send({ type: 'armed' });
  } else if (request.type === 'measure') {
    let startedAt: number | null = null;
    if (request.trigger) {
      startedAt = now();
      await viewers[0]!.emit('terminal:input', { sessionId, data: 'go\r' });
    }
    const doneAt = await Promise.all(
      viewers.map(async (v, i) => {
        // A viewer resynced by a snapshot skips bytes: it counts as done at the same offset.
        await v.waitFor(() => v.offset() - starts[i]! >= request.bytes, 'fan-out bytes', 300_000);
        return now();
      }),
    );
    send({ type: 'done', id: request.id, startedAt, doneAt, resyncs: viewers.reduce((a, v) => a + v.snapshots(), 0) - snapshots });
  } else {
    for (const v of viewers) v.stop();
    viewers = [];
    process.exit(0);
  }
}
