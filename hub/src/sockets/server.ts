// server.ts: the socket.io server on @socket.io/bun-engine and its namespaces: `/cli` (runners and
// daemons), `/web` (browsers, CLI verbs acting like a phone) and, in a cluster, `/hub` (other hubs,
// cluster/terminal-link.ts). It authenticates each connection (authenticate.ts) and binds the thin
// handlers (cli.ts, web.ts) to the domain rooms createHub gives it; it builds no service itself.
//
// Invariant: nothing but the handshake before a socket authenticates (pre-auth.ts); the main
// namespace refuses everyone; revoked credentials lose their sockets (revocation.ts).
import { Server as Engine } from '@socket.io/bun-engine';
import { Server, type Socket } from 'socket.io';
import { MAX_PAYLOAD_BYTES } from '@tether/shared';
import type { CallerResolver } from '../auth/namespace.ts';
import type { ShareLinks } from '../auth/share-links.ts';
import { createAuthFailures, type AuthFailures } from '../auth/failures.ts';
import type { HubSocket } from '../peers/peer.ts';
import { createPreAuthGate, PRE_AUTH_TIMEOUT_MS } from './pre-auth.ts';
import { handshakeGuard, type OriginPolicy } from './origin.ts';
import { authenticate, connectError } from './authenticate.ts';
import { bindCliSocket, type CliDomain } from './cli.ts';
import { bindWebSocket, type WebDomain } from './web.ts';
import { dropShareLink, dropTokens, watchRevocations } from './revocation.ts';

export const SOCKET_PATH = '/socket.io/';
/** How often live sockets are re-checked against their token. `tether token revoke` runs in another
 *  process, so the hub cannot be told; 30 s bounds how long a revoked device keeps listening. */
export const REVOCATION_CHECK_MS = 30_000;

export type SocketServer = ReturnType<typeof createSocketServer>;

export function createSocketServer(options: {
  /** Browser origins besides the hub's own (`--allowed-origin`), and whether to believe the proxy's
   *  X-Forwarded-Host and X-Forwarded-For. */
  origins?: OriginPolicy;
  /** Several hubs (cluster/cluster.ts): the adapter spanning them. */
  adapter?: Parameters<Server['adapter']>[0];
  /** Failed credentials, shared with the REST API (one limit for every way in). */
  authFailures?: AuthFailures;
  /** HubConfig.peerAddress: a relayed client's real address behind a loopback one. */
  peerAddress?: (address: string) => string | null;
}) {
  const io = new Server({ serveClient: false, maxHttpBufferSize: MAX_PAYLOAD_BYTES, connectTimeout: PRE_AUTH_TIMEOUT_MS });
  const engine = new Engine({
    path: SOCKET_PATH,
    maxHttpBufferSize: MAX_PAYLOAD_BYTES,
    allowRequest: handshakeGuard(options.origins ?? { extraOrigins: new Set(), trustProxy: false }),
  });
  if (options.adapter) io.adapter(options.adapter);
  io.bind(engine);
  const engineHandler = engine.handler();
  const preAuth = createPreAuthGate<{ transport: object }>({ key: (ws) => ws.data.transport });
  const failures = options.authFailures ?? createAuthFailures();
  const trustProxy = options.origins?.trustProxy ?? false;
  const addressOf = (socket: Socket): string => {
    const forwarded = trustProxy ? String(socket.handshake.headers['x-forwarded-for'] ?? '').split(',').map((h) => h.trim()).filter(Boolean).at(-1)?.slice(0, 64) : undefined;
    const peer = preAuth.addressOf(socket.conn.transport);
    return forwarded ?? (peer ? (options.peerAddress?.(peer) ?? peer) : 'unknown');
  };
  // The main namespace has no auth middleware: nobody may join it, so it never counts as a login.
  io.of('/').use((_socket, next) => next(connectError('no such namespace', 'not_found')));
  const cli = io.of('/cli');
  const web = io.of('/web');
  const stops: Array<() => void> = [];

  return {
    io,
    engine,
    /** For Bun.serve: the engine's WebSocket handler behind the pre-auth gate. */
    handler: { idleTimeout: engineHandler.idleTimeout, websocket: preAuth.wrap(engineHandler.websocket as never) },
    preAuth,
    /** Authenticates and binds the /cli and /web handlers to the domain rooms. */
    attach(domain: {
      resolver: CallerResolver;
      shareLinks?: ShareLinks;
      hubUrl: () => string;
      revocationCheckMs?: number;
      /** A share link revoked on another hub (the cluster tells); returns this hub's teller. */
      shareRevoked: { heard(listener: (jti: string) => void): void; tell(jti: string): void };
      /** The `/hub` namespace is served (a cluster): its connections count as authenticated too. */
      terminalLinks: boolean;
      cli: CliDomain;
      web: WebDomain;
    }): void {
      const { resolver, shareLinks, hubUrl } = domain;
      // Authenticated on any namespace: the connection may send anything (pre-auth.ts).
      for (const nsp of [cli, web, ...(domain.terminalLinks ? [io.of('/hub')] : [])]) nsp.on('connection', (socket) => preAuth.authenticated(socket.conn.transport));
      cli.use(authenticate({ resolver, accept: ['token'], hubUrl, failures, addressOf }));
      cli.on('connection', (socket) => bindCliSocket(socket as HubSocket, domain.cli));
      web.use(authenticate({ resolver, accept: ['token', 'web-session'], hubUrl, failures, addressOf, ...(shareLinks ? { shareLinks } : {}) }));
      web.on('connection', (socket) => bindWebSocket(socket as HubSocket, domain.web));
      // A revoked share link loses its live connections at once, not at the next sweep (on every hub).
      domain.shareRevoked.heard((jti) => dropShareLink(web, jti));
      const stopShareWatch = shareLinks?.onRevoked((jti) => {
        dropShareLink(web, jti);
        domain.shareRevoked.tell(jti);
      });
      if (stopShareWatch) stops.push(stopShareWatch);
      stops.push(watchRevocations({ namespaces: [cli, web], resolver, ...(shareLinks ? { shareLinks } : {}), everyMs: domain.revocationCheckMs ?? REVOCATION_CHECK_MS, onError: domain.cli.onError }));
    },
    /** Tokens revoked through a hub: their sockets here close now. */
    dropTokens(tokenIds: readonly string[]): void {
      dropTokens([cli, web], new Set(tokenIds));
    },
    async stop(): Promise<void> {
      for (const stop of stops.splice(0)) stop();
      io.disconnectSockets(true);
      for (const nsp of [cli, web]) nsp.disconnectSockets(true);
      // Closes the engine and the adapter too (it says goodbye to the other hubs and stops listening).
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
