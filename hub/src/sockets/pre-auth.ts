// pre-auth.ts: what a WebSocket may do before any of its namespaces has authenticated it, and how
// much all such sockets together may hold (issue 19: attachments buffered before login).
//
//   Bun ws open ─► opened(): a slot of the hub-wide pool, or close (the pool is full)
//   Bun ws message ─► admit(): authenticated? pass : text handshake packets only, ≤ perSocketBytes
//   /cli, /web, /hub 'connection' ─► authenticated(): the slot is freed, every packet passes from now on
//   Bun ws close ─► closed(): the slot is freed
//
// Before authentication socket.io's decoder would buffer a binary event's attachments (10 × 1 MiB
// per socket) until the 45 s connect timeout; here a binary frame, or any packet but ping/pong and
// namespace CONNECT/DISCONNECT, closes the socket before the decoder sees it.
// Invariant: at most maxSockets unauthenticated sockets at once, each having sent at most
// perSocketBytes, none of it binary.
import type { ServerWebSocket, WebSocketHandler } from 'bun';

/** A handshake is a token (≤ 4 KiB for a share link), a client kind, a device name and a version. */
export const PRE_AUTH_SOCKET_BYTES = 8 * 1024;
/** Unauthenticated sockets at once, hub-wide. A real client authenticates within one round trip and
 *  a store lookup, so even a busy hub has a handful; past this new sockets are closed at once. */
export const PRE_AUTH_MAX_SOCKETS = 256;
/** socket.io's connect timeout (default 45 s): an unauthenticated socket is closed after it. */
export const PRE_AUTH_TIMEOUT_MS = 10_000;

/** engine.io text packets a client may send before authenticating: close, ping, pong, noop, and
 *  socket.io's CONNECT / DISCONNECT of a namespace inside a message. */
const HANDSHAKE_PACKET = /^(?:[1236]|4[01])/;
/** Bun's close code for "try again later" (RFC 6455 1013) and for a policy violation (1008). */
const CLOSE_BUSY = 1013;
const CLOSE_POLICY = 1008;

export type PreAuthGate = ReturnType<typeof createPreAuthGate>;

export function createPreAuthGate<T extends object>(options: { key: (ws: ServerWebSocket<T>) => object; maxSockets?: number; perSocketBytes?: number }) {
  const maxSockets = options.maxSockets ?? PRE_AUTH_MAX_SOCKETS;
  const perSocketBytes = options.perSocketBytes ?? PRE_AUTH_SOCKET_BYTES;
  /** key (the engine transport) → bytes its socket sent before authenticating. */
  const pending = new Map<object, number>();
  const authenticated = new WeakSet<object>();
  /** key → the peer's address (Bun knows it at open; socket.io on bun-engine does not). */
  const addresses = new WeakMap<object, string>();

  const admit = (ws: ServerWebSocket<T>, message: string | Buffer): boolean => {
    const key = options.key(ws);
    if (authenticated.has(key)) return true;
    const sent = pending.get(key);
    if (sent === undefined || typeof message !== 'string' || !HANDSHAKE_PACKET.test(message)) return false;
    const total = sent + Buffer.byteLength(message);
    if (total > perSocketBytes) return false;
    pending.set(key, total);
    return true;
  };

  return {
    /** Bun's websocket handler with the gate in front of the engine's. */
    wrap(handler: WebSocketHandler<T>): WebSocketHandler<T> {
      return {
        ...handler,
        open(ws) {
          void handler.open?.(ws);
          if (pending.size >= maxSockets) {
            ws.close(CLOSE_BUSY, 'too many unauthenticated connections');
            return;
          }
          pending.set(options.key(ws), 0);
          addresses.set(options.key(ws), ws.remoteAddress);
        },
        message(ws, message) {
          if (!admit(ws, message)) {
            ws.close(CLOSE_POLICY, 'authenticate first');
            return;
          }
          return handler.message?.(ws, message);
        },
        close(ws, code, reason) {
          pending.delete(options.key(ws));
          return handler.close?.(ws, code, reason);
        },
      };
    },
    /** A namespace accepted this socket's credential (`socket.conn.transport` is the key). */
    authenticated(key: object): void {
      if (!pending.delete(key)) return;
      authenticated.add(key);
    },
    /** The peer address of a connection (`socket.conn.transport`), for the failed-auth limit. */
    addressOf(key: object): string | null {
      return addresses.get(key) ?? null;
    },
    /** Unauthenticated sockets now, and the bytes they sent. */
    stats(): { sockets: number; bytes: number } {
      let bytes = 0;
      for (const sent of pending.values()) bytes += sent;
      return { sockets: pending.size, bytes };
    },
  };
}
