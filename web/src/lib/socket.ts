// socket.ts: the one socket.io connection per tab to the hub's `/web` namespace.
// Flow: login ─► connect(auth: protocol, session JWT, device) ─► hub facts (session:updated,
// message:added, …) go to whoever subscribed; requests go out with an ack and come back as a promise.
// Invariant: at most one socket exists, and it belongs to the current login; logging out (or a 401
// from the hub) closes it. socket.io reconnects by itself; the state store tells the UI how it goes.
import { io, type Socket } from 'socket.io-client';
import type { WebAcks, WebClientToServer, WebEventName, WebPayload, WebServerToClient } from '@tether/shared';
import { PROTOCOL_VERSION } from '@tether/shared/wire';
import { currentSession, getLogin, onLoginChange, setLogin } from './hub.ts';
import { deviceNameFromUserAgent } from './format.ts';

/** The protocol major this app speaks in its handshake. */
export const WEB_PROTOCOL_MAJOR = PROTOCOL_VERSION.major;

/** How long a request waits for its ack before it fails. Long enough for a slow phone network,
 *  short enough that a button never spins forever. */
const ACK_TIMEOUT_MS = 15_000;

export type WebSocket = Socket<WebServerToClient, WebClientToServer>;

export type ConnectionState =
  | { kind: 'offline' } // logged out: no socket
  | { kind: 'connecting' }
  | { kind: 'connected' }
  | { kind: 'reconnecting'; attempt: number }
  | { kind: 'refused'; reason: string }; // the hub said no (protocol mismatch); retrying will not help

let socket: WebSocket | null = null;
let state: ConnectionState = { kind: 'offline' };
const stateListeners = new Set<() => void>();

function setState(next: ConnectionState): void {
  state = next;
  for (const listener of stateListeners) listener();
}

export function getConnectionState(): ConnectionState {
  return state;
}

export function onConnectionStateChange(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Tells the hub whether this tab is on screen: it sends web push only when no tab of the namespace
 *  is. Sent on every (re)connect and on every change; a share page never reports (it is not a login). */
function reportVisibility(target: WebSocket, viaShare: boolean): void {
  if (viaShare || !target.connected) return;
  const visible = document.visibilityState === 'visible';
  (target as unknown as { emit(event: string, payload: unknown, ack: () => void): void }).emit('client:visibility', { visible }, () => {});
}

if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (socket) reportVisibility(socket, shareToken !== null);
  });
}

/** A read-only share link's token, when this tab shows a share page: the socket then signs in
 *  with the link instead of the login (the hub lets it watch that one session, nothing else). */
let shareToken: string | null = null;

/** Switches this tab's socket to a share link (or back to the login with null). */
export function setShareCredential(token: string | null): void {
  if (shareToken === token) return;
  shareToken = token;
  closeSocket();
}

/** The socket for the current login (or share link), created on first use. Null when neither. */
export function getSocket(): WebSocket | null {
  const credential = shareToken ?? getLogin()?.session;
  if (!credential) return null;
  if (socket) return socket;
  const viaShare = shareToken !== null;

  const handshake = { protocol: WEB_PROTOCOL_MAJOR, client: 'web', device: deviceNameFromUserAgent(navigator.userAgent) };
  const next: WebSocket = io('/web', {
    path: '/socket.io/',
    // Read at every (re)connect: a paired device's session is renewed first when it ends soon.
    auth: (send) => {
      if (viaShare) return send({ ...handshake, token: credential });
      currentSession().then(
        (session) => send({ ...handshake, token: session ?? '' }),
        () => send({ ...handshake, token: '' }),
      );
    },
    // WebSocket only, like every tether client: behind a load balancer of several hubs a socket is
    // then one TCP stream to one hub, so no sticky sessions are needed (long-polling would need them).
    transports: ['websocket'],
    // Phones drop to background and back: keep retrying, but not faster than every few seconds.
    reconnectionDelay: 500,
    reconnectionDelayMax: 5_000,
  });
  socket = next;
  setState({ kind: 'connecting' });

  let renewedAfterRefusal = false;
  next.on('connect', () => {
    renewedAfterRefusal = false;
    setState({ kind: 'connected' });
    reportVisibility(next, viaShare);
  });
  next.on('disconnect', (reason) => {
    // "io client disconect" is our own close(); anything else socket.io retries by itself.
    if (reason === 'io client disconnect') return;
    setState({ kind: 'reconnecting', attempt: 0 });
    // The hub closed the connection (e.g. the token was revoked): socket.io will not retry on its own.
    if (reason === 'io server disconnect') next.connect();
  });
  next.io.on('reconnect_attempt', (attempt) => setState({ kind: 'reconnecting', attempt }));
  next.on('connect_error', (error: Error & { data?: { code?: string } }) => {
    const code = error.data?.code ?? '';
    const message = error.message || 'connection refused';
    if (code === 'unauthorized' || /unauthori[sz]ed|expired|revoked/i.test(message)) {
      if (viaShare) {
        // A share link that expired or was revoked: say so; a login has nothing to do with it.
        setState({ kind: 'refused', reason: 'this link has expired or was revoked' });
        next.close();
        return;
      }
      // A renewable session the hub refused: renew it once, then connect again (a failed renewal
      // signs out, which closes this socket through the login listener below).
      if (getLogin()?.renewable && !renewedAfterRefusal) {
        renewedAfterRefusal = true;
        void currentSession({ force: true }).then((session) => session && socket === next && next.connect());
        return;
      }
      setLogin(null); // closes this socket through the login listener below
      return;
    }
    if (code === 'protocol_mismatch' || /protocol version mismatch/i.test(message)) {
      setState({ kind: 'refused', reason: message });
      next.close();
      return;
    }
    // Middleware errors stop socket.io's own reconnection; network errors do not. Either way keep trying.
    if (!next.active) setTimeout(() => socket === next && next.connect(), 2_000);
    setState({ kind: 'reconnecting', attempt: 0 });
  });
  return next;
}

function closeSocket(): void {
  if (!socket) return;
  socket.removeAllListeners();
  socket.io.removeAllListeners();
  socket.close();
  socket = null;
  setState({ kind: 'offline' });
}

onLoginChange(({ renewed }) => {
  // A new login (another token, another namespace) or a logout: never reuse the old connection.
  // A renewed session is the same login: the socket stays (the hub lets it live with the device).
  // (A share page's socket does not depend on the login.)
  if (shareToken === null && !renewed) closeSocket();
});

/** A request the hub refused, with its ack code (`not_found`, `forbidden`, `rate_limited`, …). */
export class SocketRequestError extends Error {
  readonly code: string;
  /** A finer cause some requests give (session:spawn: `dir_missing`, `machine_offline`, …). */
  readonly reason: string | undefined;
  constructor(code: string, message: string, reason?: string) {
    super(message);
    this.code = code;
    this.reason = reason;
  }
}

/** Emits a `/web` request and resolves with the success fields of its ack. */
export function requestHub<E extends WebEventName>(
  event: E,
  payload: WebPayload<E>,
  options: { timeoutMs?: number } = {},
): Promise<WebAcks[E]> {
  const current = getSocket();
  if (!current) return Promise.reject(new SocketRequestError('unauthorized', 'not logged in'));
  return new Promise((resolve, reject) => {
    // The typed emit cannot see through the generic event name; WebAcks types both sides.
    const timed = current.timeout(options.timeoutMs ?? ACK_TIMEOUT_MS) as unknown as {
      emit(
        event: string,
        payload: unknown,
        ack: (err: Error | null, response: { ok: boolean; code?: string; error?: string } | undefined) => void,
      ): void;
    };
    timed.emit(event, payload, (err, response) => {
      if (err) return reject(new SocketRequestError('timeout', 'the hub did not answer in time'));
      if (!response || response.ok !== true) {
        return reject(
          new SocketRequestError(response?.code ?? 'internal', response?.error ?? 'request failed', (response as { reason?: string } | undefined)?.reason),
        );
      }
      const { ok: _ok, ...rest } = response;
      resolve(rest as unknown as WebAcks[E]);
    });
  });
}
