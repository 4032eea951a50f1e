// link.ts: the runner's socket.io connection to the hub's `/cli` namespace.
//
//   runner ──push()──► outbox (disk) ──flush, in order, one batch in flight──► hub ──ack──► drop
//          ◄──commands (prompt:deliver, session:abort, …) validated with CliCommandSchemas──┘
//
// Invariants: the hub being down is never fatal; socket.io reconnects with backoff (and a refused
// handshake is retried by hand, more slowly); the session is (re)registered on every connect
// before anything else is sent; outbox entries go out strictly in order and leave the outbox
// only when acked; live-only events (terminal bytes, approvals) are simply not sent while down.
import { io, type Socket } from 'socket.io-client';
import {
  CliCommandSchemas,
  MAX_MESSAGES_PER_BATCH,
  PROTOCOL_VERSION,
  type Ack,
  type CliAcks,
  type CliCommandName,
  type CliEventName,
  type CliPayload,
  type ChatMessageInput,
  type SessionRegistration,
} from '@tether/shared';
import type { z } from 'zod';
import type { Outbox, OutboxEntry, OutboxEventName } from './outbox.ts';

/** An ack slower than this means the connection is bad: resend after reconnect. */
const ACK_TIMEOUT_MS = 10_000;
/** socket.io's reconnection backoff: first retry fast (a hub restart takes ~1 s), then up to 10 s. */
const RECONNECT_DELAY_MS = 300;
const RECONNECT_DELAY_MAX_MS = 10_000;
/** A refused handshake (bad token, protocol) is retried by hand this slowly: it rarely heals itself. */
const REFUSED_RETRY_MS = 15_000;
/** Wait before retrying a batch the hub failed on transiently (internal, rate_limited). */
const TRANSIENT_RETRY_MS = 1_000;
/** Hub error codes that will never succeed on resend: the entry is dropped and reported. */
const PERMANENT_CODES = new Set(['bad_request', 'too_large', 'forbidden', 'conflict', 'gone']);

export type HubCommandHandlers = {
  [E in CliCommandName]?: (payload: z.infer<(typeof CliCommandSchemas)[E]>) => void;
};

export type HubLinkState = { kind: 'connecting' } | { kind: 'connected' } | { kind: 'down'; reason: string };

export type HubLink = {
  connected(): boolean;
  push<E extends OutboxEventName>(event: E, payload: CliPayload<E>): void;
  /** Live-only request (not buffered): resolves with the ack, or null when not connected / no ack in time. */
  request<E extends CliEventName>(event: E, payload: CliPayload<E>): Promise<Ack<CliAcks[E]> | null>;
  /** Fire-and-forget live event: dropped when not connected, and by socket.io while the transport
   *  is busy writing, so never for a byte stream. */
  volatile<E extends CliEventName>(event: E, payload: CliPayload<E>): void;
  /** Live event in order with everything else on the socket (terminal bytes); false when not
   *  connected. `onAck` runs when the hub acked it (the caller bounds what is in flight). */
  send<E extends CliEventName>(event: E, payload: CliPayload<E>, onAck?: (ack: Ack<CliAcks[E]>) => void): boolean;
  /** Resolves when the outbox is empty, or false after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean>;
  stop(): void;
};

export function connectHubLink(options: {
  hubUrl: string;
  token: string;
  sessionId: string;
  outbox: Outbox;
  /** The session as it is now; sent on every (re)connect. */
  registration: () => SessionRegistration;
  commands: HubCommandHandlers;
  onState?: (state: HubLinkState) => void;
  /** Something the hub refused for good, or a handshake problem worth telling the user. */
  onProblem?: (message: string) => void;
  /** Default ACK_TIMEOUT_MS; tests shorten it. */
  ackTimeoutMs?: number;
}): HubLink {
  const ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const { outbox, sessionId } = options;
  const socket: Socket = io(`${options.hubUrl.replace(/\/+$/, '')}/cli`, {
    auth: { protocol: PROTOCOL_VERSION.major, client: 'runner', token: options.token },
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: RECONNECT_DELAY_MS,
    reconnectionDelayMax: RECONNECT_DELAY_MAX_MS,
    randomizationFactor: 0.3,
    // socket.io would otherwise buffer emits made while disconnected and replay them: the outbox
    // is our buffer, with acks, so nothing must be replayed behind its back.
    autoConnect: false,
  });
  let registered = false;
  let stopped = false;
  let flushing = false;
  let kick = false;
  let refusedTimer: ReturnType<typeof setTimeout> | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const drainWaiters = new Set<(drained: boolean) => void>();

  const setState = (state: HubLinkState) => options.onState?.(state);

  const emitWithAck = <T extends object>(event: string, payload: unknown): Promise<Ack<T> | null> =>
    new Promise((resolve) => {
      if (!socket.connected) return resolve(null);
      socket.timeout(ackTimeoutMs).emit(event, payload, (err: unknown, ack: Ack<T>) => resolve(err ? null : ack));
    });

  const notifyDrained = () => {
    if (outbox.size() > 0) return;
    for (const waiter of [...drainWaiters]) waiter(true);
  };

  /** The next batch: consecutive message:append entries merge into one event (≤ the hub's cap). */
  const nextBatch = (): { event: OutboxEventName; payload: unknown; lastSeq: number } | null => {
    const entries = outbox.peek(MAX_MESSAGES_PER_BATCH);
    const first = entries[0];
    if (!first) return null;
    if (first.event !== 'message:append') return { event: first.event, payload: first.payload, lastSeq: first.seq };
    const messages: ChatMessageInput[] = [];
    let lastSeq = first.seq;
    for (const entry of entries as OutboxEntry[]) {
      if (entry.event !== 'message:append' || entry.payload.sessionId !== first.payload.sessionId) break;
      if (messages.length + entry.payload.messages.length > MAX_MESSAGES_PER_BATCH && messages.length > 0) break;
      messages.push(...entry.payload.messages);
      lastSeq = entry.seq;
    }
    return { event: 'message:append', payload: { sessionId: first.payload.sessionId, messages }, lastSeq };
  };

  const register = async (): Promise<void> => {
    const registration = options.registration();
    // Kept with the outbox so another process can deliver it if this one dies (orphans.ts).
    outbox.setMeta('registration', JSON.stringify(registration));
    const ack = await emitWithAck('session:register', registration);
    if (stopped || !socket.connected) return;
    if (ack && ack.ok) {
      registered = true;
      setState({ kind: 'connected' });
      void flush();
      return;
    }
    const why = ack ? `${ack.code}: ${ack.error}` : 'no answer';
    options.onProblem?.(`hub refused the session registration (${why}); retrying`);
    retryTimer = setTimeout(() => void register(), TRANSIENT_RETRY_MS);
  };

  const flush = async (): Promise<void> => {
    if (flushing) {
      kick = true;
      return;
    }
    flushing = true;
    try {
      while (!stopped && registered && socket.connected) {
        kick = false;
        const batch = nextBatch();
        if (!batch) break;
        const ack = await emitWithAck(batch.event, batch.payload);
        if (!ack) {
          // Disconnected: the next connect resends. Still connected but no ack in time: resend now
          // (the hub dedupes, so a late ack of the first copy does no harm).
          if (socket.connected) retryTimer = setTimeout(() => void flush(), 0);
          break;
        }
        if (ack.ok) {
          outbox.ackThrough(batch.lastSeq);
          continue;
        }
        if (PERMANENT_CODES.has(ack.code)) {
          options.onProblem?.(`hub refused ${batch.event} (${ack.code}: ${ack.error}); dropped`);
          outbox.ackThrough(batch.lastSeq);
          continue;
        }
        if (ack.code === 'not_found') {
          // The hub lost the session (fresh database): register again, then resend.
          registered = false;
          void register();
          break;
        }
        retryTimer = setTimeout(() => void flush(), TRANSIENT_RETRY_MS);
        break;
      }
    } finally {
      flushing = false;
      notifyDrained();
      if (kick && !stopped && registered && socket.connected) void flush();
    }
  };

  socket.on('connect', () => {
    registered = false;
    void register();
  });
  socket.on('disconnect', (reason) => {
    registered = false;
    if (!stopped) setState({ kind: 'down', reason });
  });
  socket.on('connect_error', (error: Error) => {
    if (stopped) return;
    setState({ kind: 'down', reason: error.message });
    if (!socket.active) {
      // The hub refused the handshake (token, protocol): socket.io does not retry these itself.
      options.onProblem?.(`hub refused the connection: ${error.message}`);
      refusedTimer = setTimeout(() => {
        if (!stopped) socket.connect();
      }, REFUSED_RETRY_MS);
    }
  });
  for (const name of Object.keys(CliCommandSchemas) as CliCommandName[]) {
    socket.on(name, (raw: unknown) => {
      const parsed = CliCommandSchemas[name].safeParse(raw);
      if (!parsed.success || (parsed.data as { sessionId: string }).sessionId !== sessionId) return;
      const handler = options.commands[name] as ((payload: unknown) => void) | undefined;
      handler?.(parsed.data);
    });
  }
  setState({ kind: 'connecting' });
  socket.connect();

  return {
    connected: () => registered && socket.connected,
    push: (event, payload) => {
      outbox.push(event, payload);
      void flush();
    },
    request: (event, payload) => (registered ? emitWithAck(event, payload) : Promise.resolve(null)),
    volatile: (event, payload) => {
      if (registered && socket.connected) socket.volatile.emit(event, payload);
    },
    send: (event, payload, onAck) => {
      if (!registered || !socket.connected) return false;
      if (onAck) socket.emit(event, payload, onAck);
      else socket.emit(event, payload);
      return true;
    },
    drain: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (outbox.size() === 0) return resolve(true);
        const timer = setTimeout(() => done(false), timeoutMs);
        const done = (drained: boolean) => {
          clearTimeout(timer);
          drainWaiters.delete(done);
          resolve(drained);
        };
        drainWaiters.add(done);
      }),
    stop: () => {
      stopped = true;
      if (refusedTimer) clearTimeout(refusedTimer);
      if (retryTimer) clearTimeout(retryTimer);
      socket.removeAllListeners();
      socket.disconnect();
      for (const waiter of [...drainWaiters]) waiter(false);
    },
  };
}
