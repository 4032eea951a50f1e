// link.ts: a runner's or a daemon's socket.io connection to the hub's `/cli` namespace.
//
//   client ──push()──► outbox ──delivery.ts: in order, one batch in flight──► hub ──ack──► drop
//          ◄──commands (prompt:deliver, daemon:spawn, …) validated with their schemas (commands.ts)──┘
//
// A runner registers its session and keeps its outbox on disk (outbox.ts); a daemon registers its
// machine and keeps its runner-exit reports in memory. Invariants: the hub being down is never fatal;
// socket.io reconnects with backoff (and a refused handshake is retried by hand, more slowly, until
// `giveUpAfterRefusals`); the client is (re)registered on every connect before anything else is
// sent; outbox entries go out strictly in order and leave the outbox only when acked; live-only
// events (terminal bytes, approvals, shell output) are simply not sent while down.
import { io, type Socket } from 'socket.io-client';
import {
  PROTOCOL_VERSION,
  type Ack,
  type CliAcks,
  type CliEventName,
  type CliPayload,
  type MachineInfo,
  type SessionRegistration,
} from '@tether/shared';
import { listenForCommands, type DaemonCommandHandlers, type HubCommandHandlers, type RunnerQueryHandlers } from './commands.ts';
import { createDelivery } from './delivery.ts';
import type { OutboxEventName, OutboxQueue } from './outbox.ts';

export type { HubCommandHandlers, RunnerQueryHandlers } from './commands.ts';

/** An ack slower than this means the connection is bad: resend after reconnect. */
const ACK_TIMEOUT_MS = 10_000;
/** socket.io's reconnection backoff: first retry fast (a hub restart takes ~1 s), then up to 10 s. */
const RUNNER_BACKOFF: Backoff = { firstMs: 300, maxMs: 10_000 };
/** A refused handshake (bad token, protocol) is retried by hand this slowly: it rarely heals itself. */
const REFUSED_RETRY_MS = 15_000;
/** Wait before asking again after the hub refused the registration. */
const REGISTER_RETRY_MS = 1_000;

/** socket.io's reconnection delays after a lost connection (randomized ±30 %). */
export type Backoff = { firstMs: number; maxMs: number };

export type HubLinkState =
  | { kind: 'connecting' }
  | { kind: 'connected' }
  /** `refused`: the hub refused the handshake (token, protocol); retried every REFUSED_RETRY_MS. */
  | { kind: 'down'; reason: string; refused?: true }
  /** `giveUpAfterRefusals` refused handshakes in a row: the link has stopped. */
  | { kind: 'gave-up'; reason: string; refusals: number };

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

type LinkOptions = {
  hubUrl: string;
  token: string;
  outbox: OutboxQueue;
  onState?: (state: HubLinkState) => void;
  /** Something the hub refused for good, or a registration it refused (retried). */
  onProblem?: (message: string) => void;
  /** Default ACK_TIMEOUT_MS; tests shorten it. */
  ackTimeoutMs?: number;
  /** Default RUNNER_BACKOFF. */
  backoff?: Backoff;
  /** Refused handshakes in a row after which the link stops ('gave-up'); default: never. */
  giveUpAfterRefusals?: number;
};

/** A session's runner: registered with the session as it is now, on every (re)connect. */
type RunnerRole = { client?: 'runner'; sessionId: string; registration: () => SessionRegistration; commands: HubCommandHandlers; queries?: RunnerQueryHandlers };
/** A machine's daemon: registered with the machine; its outbox holds runner:exited reports, and a
 *  report about a session the hub does not know (not_found) is dropped. */
type DaemonRole = { client: 'daemon'; registration: () => MachineInfo; commands: DaemonCommandHandlers };

export function connectHubLink(options: LinkOptions & (RunnerRole | DaemonRole)): HubLink {
  const ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const { outbox } = options;
  const client = options.client ?? 'runner';
  const backoff = options.backoff ?? RUNNER_BACKOFF;
  const socket: Socket = io(`${options.hubUrl.replace(/\/+$/, '')}/cli`, {
    auth: { protocol: PROTOCOL_VERSION.major, client, token: options.token },
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: backoff.firstMs,
    reconnectionDelayMax: backoff.maxMs,
    randomizationFactor: 0.3,
    // socket.io would otherwise buffer emits made while disconnected and replay them: the outbox
    // is our buffer, with acks, so nothing must be replayed behind its back.
    autoConnect: false,
  });
  let registered = false;
  let stopped = false;
  let refusals = 0;
  let refusedTimer: ReturnType<typeof setTimeout> | null = null;
  let registerTimer: ReturnType<typeof setTimeout> | null = null;

  const setState = (state: HubLinkState) => options.onState?.(state);

  const emitWithAck = <T extends object>(event: string, payload: unknown): Promise<Ack<T> | null> =>
    new Promise((resolve) => {
      if (!socket.connected) return resolve(null);
      socket.timeout(ackTimeoutMs).emit(event, payload, (err: unknown, ack: Ack<T>) => resolve(err ? null : ack));
    });

  const delivery = createDelivery({
    outbox,
    emitWithAck,
    ready: () => !stopped && registered && socket.connected,
    connected: () => socket.connected,
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
    onNotFound: () => {
      // A daemon's runner exit names a session the hub does not know: nothing left to end.
      if (client === 'daemon') return 'drop';
      // The hub lost the session (fresh database): register again, then resend.
      registered = false;
      void register();
      return 'hold';
    },
  });

  const register = async (): Promise<void> => {
    let ack: Ack<object> | null;
    if (options.client === 'daemon') {
      ack = await emitWithAck('machine:register', options.registration());
    } else {
      const registration = options.registration();
      // Kept with the outbox so another process can deliver it if this one dies (orphans.ts).
      outbox.setMeta('registration', JSON.stringify(registration));
      ack = await emitWithAck('session:register', registration);
    }
    if (stopped || !socket.connected) return;
    if (ack && ack.ok) {
      registered = true;
      setState({ kind: 'connected' });
      delivery.flush();
      return;
    }
    const why = ack ? `${ack.code}: ${ack.error}` : 'no answer';
    options.onProblem?.(`hub refused the ${client === 'daemon' ? 'machine' : 'session'} registration (${why}); retrying`);
    registerTimer = setTimeout(() => void register(), REGISTER_RETRY_MS);
  };

  const stop = () => {
    stopped = true;
    if (refusedTimer) clearTimeout(refusedTimer);
    if (registerTimer) clearTimeout(registerTimer);
    socket.removeAllListeners();
    socket.disconnect();
    delivery.stop();
  };

  socket.on('connect', () => {
    registered = false;
    refusals = 0;
    void register();
  });
  socket.on('disconnect', (reason) => {
    registered = false;
    if (!stopped) setState({ kind: 'down', reason });
  });
  socket.on('connect_error', (error: Error) => {
    if (stopped) return;
    // A network error: socket.io backs off and retries by itself.
    if (socket.active) return setState({ kind: 'down', reason: error.message });
    // The hub refused the handshake (token, protocol): socket.io does not retry these itself.
    setState({ kind: 'down', reason: error.message, refused: true });
    refusals += 1;
    if (options.giveUpAfterRefusals !== undefined && refusals >= options.giveUpAfterRefusals) {
      stop();
      setState({ kind: 'gave-up', reason: error.message, refusals });
      return;
    }
    refusedTimer = setTimeout(() => {
      if (!stopped) socket.connect();
    }, REFUSED_RETRY_MS);
  });
  listenForCommands(
    socket,
    options.client === 'daemon'
      ? { client: 'daemon', handlers: options.commands }
      : { client: 'runner', sessionId: options.sessionId, handlers: options.commands, ...(options.queries ? { queries: options.queries } : {}) },
  );
  setState({ kind: 'connecting' });
  socket.connect();

  return {
    connected: () => registered && socket.connected,
    push: (event, payload) => {
      outbox.push(event, payload);
      delivery.flush();
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
    drain: (timeoutMs) => delivery.drain(timeoutMs),
    stop,
  };
}
