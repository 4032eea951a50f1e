// terminal.ts (harness): the two ends of a terminal mirror as a test drives them.
//
//   startCommandRunner ─► bun cli/src/main.ts claude (stdio pipes: no desk) ─PTY─► $TETHER_TEST_CMD
//                                  └──socket.io /cli──► hub ──/web──► viewTerminal (socket + @xterm/headless)
//
// viewTerminal renders exactly what a browser's xterm would: a snapshot resets the emulator, bytes
// are written in offset order (a chunk that does not start where the viewer is is a bug and is
// recorded), and acks go back after the emulator parsed them, unless the test stalls the viewer.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { Terminal } from '@xterm/headless';
import { PROTOCOL_VERSION, TERMINAL_ACK_BYTES, type Ack, type TerminalSizeNotice } from '@tether/shared';
import { TETHER_MAIN } from './runner.ts';
import { createWaits } from './waiting.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** A stand-in for claude that runs $TETHER_TEST_CMD (see the script). */
export const RUN_CMD_BIN = resolve(HERE, '..', 'fixtures', 'terminal', 'run-cmd.sh');
const DEFAULT_WAIT_MS = 15_000;
/** The rest of a burst is acked this long after its last chunk (the browser waits 100 ms). */
const ACK_DELAY_MS = 20;

export type CommandRunner = {
  sessionId: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
  stop(): Promise<void>;
};

/** A real runner process without a desk (stdio are pipes), running `command` in its PTY. */
export function startCommandRunner(options: { hub: { url: string; token: string }; command: string; env?: Record<string, string> }): CommandRunner {
  const home = mkdtempSync(join(tmpdir(), 'tether-term-runner-'));
  const sessionId = crypto.randomUUID();
  const child = spawn(process.execPath, [TETHER_MAIN, 'claude'], {
    cwd: home,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TERM: 'xterm-256color',
      TETHER_HOME: home,
      TETHER_CLAUDE_BIN: RUN_CMD_BIN,
      TETHER_SESSION_ID: sessionId,
      TETHER_HUB_URL: options.hub.url,
      TETHER_TOKEN: options.hub.token,
      TETHER_TEST_CMD: options.command,
      ...options.env,
    },
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.resume();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return {
    sessionId,
    child,
    exited,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export type TerminalViewer = {
  socket: Socket;
  /** Offset of the next byte this viewer expects. */
  offset(): number;
  /** Bytes received as terminal:output (not snapshots). */
  bytesReceived(): number;
  snapshots(): number;
  /** Chunks that did not start at the viewer's offset (must stay 0). */
  misplaced(): number;
  sizes(): TerminalSizeNotice[];
  screen(): string;
  /** Everything in the emulator (scrollback + screen), trailing spaces trimmed. */
  buffer(): string;
  /** Resolves once the emulator has parsed everything received so far. */
  settled(): Promise<void>;
  waitFor(probe: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  subscribe(since?: number): Promise<Ack<{ mode: 'bytes' | 'snapshot'; offset: number }>>;
  emit(event: string, payload: unknown): Promise<Ack<Record<string, unknown>>>;
  /** Leave the terminal but keep the emulator (a phone that went to the background). */
  unsubscribe(): Promise<void>;
  /** Stop acking (a stalled phone). */
  stall(): void;
  stop(): void;
};

export async function viewTerminal(options: {
  url: string;
  token: string;
  sessionId: string;
  since?: number;
  /** Render into a headless xterm (default true). Off: count bytes only (throughput). */
  render?: boolean;
  cols?: number;
  rows?: number;
  scrollback?: number;
  /** Subscribe now (default true), retrying until the runner registered the session. */
  subscribe?: boolean;
  client?: 'web';
  device?: string;
  /** A CA to trust for an https url (bench/relay.bench.ts reaches the hub through the relay). */
  ca?: string;
}): Promise<TerminalViewer> {
  const render = options.render ?? true;
  const socket = io(`${options.url}/web`, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { protocol: PROTOCOL_VERSION.major, client: 'web', token: options.token, device: options.device ?? 'test viewer' },
    ...(options.ca ? { ca: options.ca } : {}),
  });
  await new Promise<void>((r, reject) => {
    socket.once('connect', () => r());
    socket.once('connect_error', reject);
  });
  const term = new Terminal({ cols: options.cols ?? 120, rows: options.rows ?? 40, scrollback: options.scrollback ?? 1000, allowProposedApi: true });
  const sid = options.sessionId;
  let offset = options.since ?? -1;
  let bytes = 0;
  let snaps = 0;
  let misplaced = 0;
  let stalled = false;
  const sizes: TerminalSizeNotice[] = [];
  const waits = createWaits();
  const changed = waits.changed;
  // Acks as the browser sends them: at once when TERMINAL_ACK_BYTES are unacked, else a little
  // later (one ack per chunk cost the 100 fan-out viewers' processes a fifth of their time).
  let acked = -1;
  let ackTimer: ReturnType<typeof setTimeout> | null = null;
  const sendAck = () => {
    if (ackTimer) clearTimeout(ackTimer);
    ackTimer = null;
    if (stalled || offset <= acked) return;
    acked = offset;
    socket.emit('terminal:ack', { sessionId: sid, offset });
  };
  const ack = () => {
    if (stalled) return;
    if (offset - acked >= TERMINAL_ACK_BYTES) sendAck();
    else ackTimer ??= setTimeout(sendAck, ACK_DELAY_MS);
  };
  socket.on('terminal:snapshot', (snap: { sessionId: string; offset: number; cols: number; rows: number; data: string }) => {
    if (snap.sessionId !== sid) return;
    snaps++;
    offset = snap.offset;
    acked = -1;
    if (render) {
      term.reset();
      term.resize(snap.cols, snap.rows);
      term.write(snap.data, () => {
        ack();
        changed();
      });
    } else {
      ack();
      changed();
    }
  });
  socket.on('terminal:output', (out: { sessionId: string; offset: number; data: ArrayBuffer | Uint8Array }) => {
    if (out.sessionId !== sid) return;
    const data = out.data instanceof Uint8Array ? out.data : new Uint8Array(out.data);
    if (out.offset !== offset) {
      misplaced++;
      return;
    }
    offset += data.length;
    bytes += data.length;
    if (render) {
      term.write(data, () => {
        ack();
        changed();
      });
    } else {
      ack();
      changed();
    }
  });
  socket.on('terminal:size', (notice: TerminalSizeNotice) => {
    if (notice.sessionId !== sid) return;
    sizes.push(notice);
    // Applied in stream order: the notice's offset is at or before what was written so far here.
    if (render && (notice.cols !== term.cols || notice.rows !== term.rows)) term.write('', () => term.resize(notice.cols, notice.rows));
    changed();
  });
  const emit = async (event: string, payload: unknown) => (await socket.timeout(10_000).emitWithAck(event, payload)) as Ack<Record<string, unknown>>;
  const lines = (from: number, to: number) => {
    const b = term.buffer.active;
    const out: string[] = [];
    for (let y = from; y < to; y++) out.push(b.getLine(y)?.translateToString(true) ?? '');
    return out.join('\n');
  };
  const waitFor = async (probe: () => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<void> => {
    await waits.waitFor({ probe, timeoutMs, timedOut: () => `viewer timed out waiting for ${what} (offset ${offset}, bytes ${bytes}, snapshots ${snaps})` });
  };
  const subscribe = async (since?: number) => {
    if (since !== undefined) offset = acked = since;
    const deadline = Date.now() + DEFAULT_WAIT_MS;
    for (;;) {
      const result = (await emit('terminal:subscribe', { sessionId: sid, ...(since !== undefined ? { since } : {}) })) as Ack<{
        mode: 'bytes' | 'snapshot';
        offset: number;
      }>;
      if (result.ok || result.code !== 'not_found' || Date.now() > deadline) return result;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const viewer: TerminalViewer = {
    socket,
    offset: () => offset,
    bytesReceived: () => bytes,
    snapshots: () => snaps,
    misplaced: () => misplaced,
    sizes: () => sizes,
    screen: () => lines(term.buffer.active.baseY, term.buffer.active.baseY + term.rows),
    buffer: () => lines(0, term.buffer.active.length),
    settled: () => new Promise<void>((r) => term.write('', r)),
    waitFor,
    subscribe,
    emit,
    unsubscribe: async () => {
      await emit('terminal:unsubscribe', { sessionId: sid });
    },
    stall: () => {
      stalled = true;
    },
    stop: () => {
      if (ackTimer) clearTimeout(ackTimer);
      socket.close();
      term.dispose();
    },
  };
  if (options.subscribe ?? true) {
    const result = await subscribe(options.since);
    if (!result.ok) {
      viewer.stop();
      throw new Error(`terminal:subscribe failed: ${result.code} ${result.error}`);
    }
  }
  return viewer;
}

/** The screen the hub keeps for a session (an ended one's final screen), as a late viewer renders it. */
export async function finalScreen(hub: { url: string; token: string }, sessionId: string): Promise<string> {
  const viewer = await viewTerminal({ url: hub.url, token: hub.token, sessionId, render: true });
  try {
    await viewer.waitFor(() => viewer.snapshots() > 0, 'the final screen');
    await viewer.settled();
    return viewer.screen();
  } finally {
    viewer.stop();
  }
}
