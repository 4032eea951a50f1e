// authenticate.ts: authentication once per connection (`nsp.use`).
//
//   handshake.auth ─► protocol major check ─► HandshakeSchema ─► credential → caller (namespace)
//        └─ failure: connect_error with a clear message ("protocol version mismatch…", "unauthorized")
//
// Invariant: a socket that reaches a handler has a caller; /cli accepts access tokens only, /web a
// web session, an access token or a read-only share link.
import type { Socket } from 'socket.io';
import { describeZodError, HandshakeSchema, protocolMismatch, type ErrorCode } from '@tether/shared';
import type { Caller, CallerResolver } from '../auth/namespace.ts';
import type { ShareLinks } from '../auth/share-links.ts';
import type { AuthFailures } from '../auth/failures.ts';
import type { HubSocketData } from '../peers/peer.ts';

export function connectError(message: string, code: ErrorCode | 'protocol_mismatch'): Error {
  const error = new Error(message) as Error & { data?: unknown };
  error.data = { code };
  return error;
}

export function authenticate(options: {
  resolver: CallerResolver;
  accept: ReadonlyArray<Caller['via']>;
  shareLinks?: ShareLinks;
  hubUrl: () => string;
  failures: AuthFailures;
  addressOf: (socket: Socket) => string;
}) {
  return async (socket: Socket, next: (err?: Error) => void) => {
    try {
      const auth: unknown = socket.handshake.auth;
      const protocol = auth && typeof auth === 'object' ? (auth as { protocol?: unknown }).protocol : undefined;
      // Checked before the rest of the shape: a peer of another major may send another shape.
      if (typeof protocol === 'number') {
        const mismatch = protocolMismatch(protocol);
        if (mismatch) return next(connectError(mismatch, 'protocol_mismatch'));
      }
      const parsed = HandshakeSchema.safeParse(auth);
      if (!parsed.success) return next(connectError(`bad handshake: ${describeZodError(parsed.error)}`, 'bad_request'));
      let caller = await options.resolver.resolve({ credential: parsed.data.token, accept: options.accept });
      let share: HubSocketData['share'] = null;
      if (!caller && options.shareLinks && parsed.data.client === 'web') {
        // A read-only share link: one session, watch and terminal only (share.ts enforces it).
        const claims = await options.shareLinks.verify(parsed.data.token);
        if (claims) {
          share = { sessionId: claims.sessionId, jti: claims.jti, tokenId: claims.tokenId };
          caller = { namespace: claims.namespace, tokenId: `share:${claims.jti}`, label: 'share link', via: 'web-session', expiresAt: claims.expiresAt };
        }
      }
      if (!caller) {
        // Counted like a failed login; a valid credential never reaches this line (failures.ts).
        const wait = options.failures.failed({ address: options.addressOf(socket), credential: parsed.data.token });
        if (wait !== null) return next(connectError(`too many failed attempts; retry in ${wait}s`, 'rate_limited'));
        return next(connectError('unauthorized', 'unauthorized'));
      }
      const data: HubSocketData = {
        caller,
        client: parsed.data.client,
        device: parsed.data.device ?? null,
        sessions: new Set(),
        terminals: new Set(),
        machineId: null,
        share,
        connectedAt: Date.now(),
        hubUrl: options.hubUrl(),
      };
      socket.data = data;
      next();
    } catch {
      next(connectError('internal error', 'internal'));
    }
  };
}
