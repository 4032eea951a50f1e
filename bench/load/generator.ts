// generator.ts: a load-generator process holding some of the fake sessions of a scale or soak run.
// Each session is a runner socket on /cli and a viewer socket on /web, as the real ones behave:
//
//   runner ──session:register──► hub            viewer ──session:watch, terminal:subscribe──► hub
//   runner ──terminal:output (100 B every 100 ms, while watched, after a snapshot)──► hub ──► viewer ──terminal:ack (100 ms later)
//   runner ──message:append (every 10 s)──► hub ──message:added──► viewer          chat lag = emit → receipt
//   runner ──approval:request (every 60 s)──► hub ──approval:requested──► viewer ──approval:answer──►
//          hub ──approval:answered──► runner                                       approval time = emit → answer
//
// Runner and viewer of a session live in this one process, so both ends of a sample read the same
// clock. Driven over Bun IPC by fleet.ts (start → window-begin → window-end → stop).
import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '@tether/shared';

export type LoadRates = {
  chunkBytes: number;
  chunkEveryMs: number;
  chatEveryMs: number;
  approvalEveryMs: number;
};

export type SessionSpec = { sessionId: string; token: string };

export type GeneratorRequest =
  | { type: 'start'; url: string; sessions: SessionSpec[]; spacingMs: number; rates: LoadRates }
  | { type: 'window-begin' }
  | { type: 'window-end' }
  | { type: 'stop' };

export type WindowSamples = {
  chatLagMs: number[];
  approvalMs: number[];
  /** Terminal bytes viewers received in the window. */
  terminalBytes: number;
  /** Chunks that arrived at the wrong offset (must stay 0). */
  misplaced: number;
  /** Chat messages / approvals sent in the window that had no answer by its end. */
  chatMissing: number;
  approvalsMissing: number;
  errors: string[];
  disconnects: number;
};

export type GeneratorReply =
  | { type: 'started'; sessions: number; failed: number; firstError: string | null }
  | { type: 'window-begun' }
  | { type: 'window'; samples: WindowSamples }
  | { type: 'error'; message: string };

/** The web app acks terminal bytes this long after the last chunk (ACK_INTERVAL_MS there). */
const ACK_DELAY_MS = 100;
const TICK_MS = 10;
/** Errors kept per window (the rest are counted by disconnects/missing). */
const MAX_ERRORS = 20;

const send = (reply: GeneratorReply) => process.send!(reply);

type FakeSession = {
  spec: SessionSpec;
  runner: Socket;
  viewer: Socket;
  /** Bytes the fake PTY has produced (the next chunk's offset). */
  ptyOffset: number;
  /** The hub asked for a snapshot and got one: bytes flow while someone watches. */
  streaming: boolean;
  viewers: number;
  viewerOffset: number;
  viewerAcked: number;
  ackTimer: ReturnType<typeof setTimeout> | null;
  nextChunkAt: number;
  nextChatAt: number;
  nextApprovalAt: number;
  chatSent: Map<string, number>;
  approvalSent: Map<string, number>;
};

let rates: LoadRates;
let sessions: FakeSession[] = [];
let ticker: ReturnType<typeof setInterval> | null = null;
let samples: WindowSamples = emptySamples();
let windowStart = Number.POSITIVE_INFINITY;
/** Streams start once every session of this process is up: a 2-core box connecting 1,000 sessions
 *  while the first ones already stream timed connections out. */
let streaming = false;

function emptySamples(): WindowSamples {
  return { chatLagMs: [], approvalMs: [], terminalBytes: 0, misplaced: 0, chatMissing: 0, approvalsMissing: 0, errors: [], disconnects: 0 };
}

function noteError(what: string) {
  if (samples.errors.length < MAX_ERRORS) samples.errors.push(what);
}

/** 100 bytes of something that looks like a build log, ending in CRLF. */
function chunkOf(size: number, n: number): Uint8Array {
  const line = `[${String(n).padStart(8, '0')}] compiling module ${n % 97} of the project, please wait `;
  const body = line.repeat(Math.ceil(size / line.length)).slice(0, size - 2);
  return new TextEncoder().encode(`${body}\r\n`);
}

function connect(url: string, nsp: '/cli' | '/web', token: string, client: 'runner' | 'web'): Promise<Socket> {
  const socket = io(url + nsp, {
    transports: ['websocket'],
    forceNew: true,
    // Like the real runner and web app: back after a drop (a starved box misses pings), and the
    // drop is counted (`disconnects`).
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    timeout: 60_000,
    auth: { protocol: PROTOCOL_VERSION.major, client, token, device: 'scale bench' },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${nsp} connect timed out`)), 60_000);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      socket.close();
      reject(error);
    });
  });
}

async function ask(socket: Socket, event: string, payload: unknown): Promise<{ ok: boolean; error?: string } & Record<string, unknown>> {
  let reason = '';
  const note = (why: string) => (reason = why);
  socket.once('disconnect', note);
  try {
    return (await socket.timeout(60_000).emitWithAck(event, payload)) as { ok: boolean; error?: string };
  } catch (error) {
    throw new Error(`${event}: ${error instanceof Error ? error.message : String(error)}${reason ? ` (${reason})` : ''}`);
  } finally {
    socket.off('disconnect', note);
  }
}

async function startSession(url: string, spec: SessionSpec): Promise<FakeSession> {
  const runner = await connect(url, '/cli', spec.token, 'runner');
  const now = performance.now();
  const s: FakeSession = {
    spec,
    runner,
    viewer: null as unknown as Socket,
    ptyOffset: 0,
    streaming: false,
    viewers: 0,
    viewerOffset: -1,
    viewerAcked: -1,
    ackTimer: null,
    // Phases spread over each period, so sessions started together do not send together.
    nextChunkAt: now + Math.random() * rates.chunkEveryMs,
    nextChatAt: now + Math.random() * rates.chatEveryMs,
    nextApprovalAt: now + Math.random() * rates.approvalEveryMs,
    chatSent: new Map(),
    approvalSent: new Map(),
  };
  const sessionId = spec.sessionId;
  runner.on('terminal:viewers', ({ count }: { count: number }) => {
    s.viewers = count;
    if (count === 0) s.streaming = false;
  });
  runner.on('terminal:snapshot-request', () => {
    // A small screen: what matters here is the steady stream after it.
    runner.emit('terminal:snapshot', { sessionId, offset: s.ptyOffset, cols: 100, rows: 30, data: `\x1b[2J\x1b[Hscale session ${sessionId}\r\n` }, () => {});
    s.streaming = s.viewers > 0;
  });
  runner.on('approval:answered', ({ requestId }: { requestId: string }) => {
    const sent = s.approvalSent.get(requestId);
    if (sent === undefined) return;
    s.approvalSent.delete(requestId);
    if (sent >= windowStart) samples.approvalMs.push(performance.now() - sent);
  });
  runner.on('disconnect', (reason) => {
    samples.disconnects++;
    s.streaming = false;
    noteError(`runner disconnected: ${reason}`);
  });
  const register = async () => {
    const registered = await ask(runner, 'session:register', { id: sessionId, cwd: '/tmp/scale', launchKind: 'pty', status: 'idle', title: 'scale' });
    if (!registered.ok) throw new Error(`register: ${registered.error}`);
  };
  await register();
  // socket.io fires 'connect' again after each reconnection.
  runner.on('connect', () => void register().catch((error: unknown) => noteError(String(error))));

  const viewer = await connect(url, '/web', spec.token, 'web');
  s.viewer = viewer;
  const sendAck = () => {
    if (s.ackTimer) clearTimeout(s.ackTimer);
    s.ackTimer = null;
    if (s.viewerOffset <= s.viewerAcked) return;
    s.viewerAcked = s.viewerOffset;
    viewer.emit('terminal:ack', { sessionId, offset: s.viewerOffset }, () => {});
  };
  const scheduleAck = () => {
    s.ackTimer ??= setTimeout(sendAck, ACK_DELAY_MS);
  };
  viewer.on('terminal:snapshot', (snap: { sessionId: string; offset: number }) => {
    if (snap.sessionId !== sessionId) return;
    s.viewerOffset = snap.offset;
    s.viewerAcked = -1;
    scheduleAck();
  });
  viewer.on('terminal:output', (out: { sessionId: string; offset: number; data: Uint8Array | ArrayBuffer }) => {
    if (out.sessionId !== sessionId) return;
    const length = out.data.byteLength;
    if (out.offset !== s.viewerOffset) {
      samples.misplaced++;
      return;
    }
    s.viewerOffset += length;
    samples.terminalBytes += length;
    scheduleAck();
  });
  viewer.on('message:added', (payload: { sessionId: string; messages: Array<{ id: string }> }) => {
    if (payload.sessionId !== sessionId) return;
    const now = performance.now();
    for (const m of payload.messages) {
      const sent = s.chatSent.get(m.id);
      if (sent === undefined) continue;
      s.chatSent.delete(m.id);
      if (sent >= windowStart) samples.chatLagMs.push(now - sent);
    }
  });
  // The phone answers its own session's approvals at once (it hears the whole namespace's).
  viewer.on('approval:requested', (request: { id: string; sessionId: string }) => {
    if (request.sessionId !== sessionId) return;
    viewer.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } }, (ack: { ok: boolean; error?: string }) => {
      if (!ack.ok) noteError(`approval:answer: ${ack.error}`);
    });
  });
  viewer.on('disconnect', (reason) => {
    samples.disconnects++;
    noteError(`viewer disconnected: ${reason}`);
  });
  const watch = async () => {
    const watched = await ask(viewer, 'session:watch', { sessionId });
    if (!watched.ok) throw new Error(`watch: ${watched.error}`);
    s.viewerOffset = -1;
    const subscribed = await ask(viewer, 'terminal:subscribe', { sessionId });
    if (!subscribed.ok) throw new Error(`subscribe: ${subscribed.error}`);
  };
  await watch();
  viewer.on('connect', () => void watch().catch((error: unknown) => noteError(String(error))));
  return s;
}

let chunkCounter = 0;
function tick() {
  if (!streaming) return;
  const now = performance.now();
  for (const s of sessions) {
    const sessionId = s.spec.sessionId;
    // A process that fell far behind skips ahead rather than bursting (the rate is the point).
    if (now - s.nextChunkAt > 1000) s.nextChunkAt = now;
    while (now >= s.nextChunkAt) {
      s.nextChunkAt += rates.chunkEveryMs;
      const data = chunkOf(rates.chunkBytes, chunkCounter++);
      const offset = s.ptyOffset;
      s.ptyOffset += data.length;
      // Like the real runner: bytes go to the hub only while watched and after a snapshot.
      if (s.streaming) s.runner.emit('terminal:output', { sessionId, offset, data }, () => {});
    }
    if (now >= s.nextChatAt) {
      s.nextChatAt += rates.chatEveryMs;
      const id = crypto.randomUUID();
      s.chatSent.set(id, performance.now());
      const message = { id, role: 'assistant', content: [{ type: 'text', text: `Progress note ${id}: `.padEnd(200, 'x') }], createdAt: Date.now() };
      s.runner.emit('message:append', { sessionId, messages: [message] }, (ack: { ok: boolean; error?: string }) => {
        if (!ack.ok) noteError(`message:append: ${ack.error}`);
      });
    }
    if (now >= s.nextApprovalAt) {
      s.nextApprovalAt += rates.approvalEveryMs;
      const id = crypto.randomUUID();
      s.approvalSent.set(id, performance.now());
      const request = { id, sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls -la', description: 'list files' }, toolUseId: null, createdAt: Date.now() };
      s.runner.emit('approval:request', request, (ack: { ok: boolean; error?: string }) => {
        if (!ack.ok) noteError(`approval:request: ${ack.error}`);
      });
    }
  }
}

async function handle(request: GeneratorRequest): Promise<void> {
  switch (request.type) {
    case 'start': {
      rates = request.rates;
      ticker = setInterval(tick, TICK_MS);
      let failed = 0;
      let firstError: string | null = null;
      const starts: Array<Promise<void>> = [];
      for (const spec of request.sessions) {
        starts.push(
          startSession(request.url, spec).then(
            (s) => void sessions.push(s),
            (error: unknown) => {
              failed++;
              firstError ??= error instanceof Error ? error.message : String(error);
            },
          ),
        );
        await Bun.sleep(request.spacingMs);
      }
      await Promise.all(starts);
      const now = performance.now();
      for (const s of sessions) {
        s.nextChunkAt = now + Math.random() * rates.chunkEveryMs;
        s.nextChatAt = now + Math.random() * rates.chatEveryMs;
        s.nextApprovalAt = now + Math.random() * rates.approvalEveryMs;
      }
      streaming = true;
      send({ type: 'started', sessions: sessions.length, failed, firstError });
      return;
    }
    case 'window-begin':
      samples = emptySamples();
      windowStart = performance.now();
      send({ type: 'window-begun' });
      return;
    case 'window-end': {
      // What was sent in the window and never answered (sent at least 5 s before its end).
      const cutoff = performance.now() - 5000;
      for (const s of sessions) {
        for (const at of s.chatSent.values()) if (at >= windowStart && at < cutoff) samples.chatMissing++;
        for (const at of s.approvalSent.values()) if (at >= windowStart && at < cutoff) samples.approvalsMissing++;
      }
      windowStart = Number.POSITIVE_INFINITY;
      send({ type: 'window', samples });
      return;
    }
    case 'stop':
      if (ticker) clearInterval(ticker);
      for (const s of sessions) {
        s.runner.removeAllListeners('disconnect');
        s.viewer.removeAllListeners('disconnect');
        s.runner.io.reconnection(false);
        s.viewer.io.reconnection(false);
        s.runner.close();
        s.viewer.close();
      }
      sessions = [];
      process.exit(0);
  }
}

process.on('message', (raw) => {
  void handle(raw as GeneratorRequest).catch((error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }));
});

// SCALE_GEN_MEMLOG=1: heap figures of this process every 20 s on stderr (finding leaks on the runner side).
if (process.env.SCALE_GEN_MEMLOG) {
  const { heapStats } = await import('bun:jsc');
  setInterval(() => {
    const h = heapStats();
    const top = Object.entries(h.protectedObjectTypeCounts ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 3);
    const m = process.memoryUsage();
    console.error(JSON.stringify({ gen: process.pid, rss: Math.round(m.rss / 1e6), heap: Math.round(m.heapUsed / 1e6), ab: Math.round(m.arrayBuffers / 1e6), objects: h.objectCount, protected: top }));
  }, 20_000).unref();
}
