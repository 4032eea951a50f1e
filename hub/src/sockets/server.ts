// server.ts: the socket.io server on @socket.io/bun-engine, its `/cli` and `/web` namespaces, and
// authentication once per connection (`nsp.use`).
//
//   handshake.auth ─► protocol major check ─► HandshakeSchema ─► credential → caller (namespace)
//        └─ failure: connect_error with a clear message ("protocol version mismatch…", "unauthorized")
//
// Invariant: a socket that reaches a handler has a caller; /cli accepts access tokens only, /web a
// web session or an access token. Revocation is seen at the next connection, and live sockets are
// re-checked every `revocationCheckMs` (a revoked phone stops receiving within that time).
import { Server as Engine } from '@socket.io/bun-engine';
import { Server, type Socket } from 'socket.io';
import {
  describeZodError,
  HandshakeSchema,
  MAX_PAYLOAD_BYTES,
  namespaceRoom,
  protocolMismatch,
  runnerRoom,
  type ErrorCode,
  type Namespace,
  type Session,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { Caller, CallerResolver } from '../auth/namespace.ts';
import type { ShareLinks } from '../auth/share-links.ts';
import { createMachineRegistry } from '../sessions/machines.ts';
import { createTerminalRegistry } from '../terminal/registry.ts';
import { storedFinalScreens } from '../terminal/final-screens.ts';
import { createBroadcast } from './broadcast.ts';
import { bindCliSocket } from './cli.ts';
import { bindWebSocket } from './web.ts';
import { createDaemonDirectory } from './daemons.ts';
import { createShellRelay } from './shells.ts';
import { createSessionControl, observeSessionUpdates } from './session-control.ts';
import { createSessionReadiness } from '../sessions/readiness.ts';
import type { HubSocket, HubSocketData } from './handle.ts';
import { createClusterBus } from './cluster-bus.ts';
import { createHubLinkServer } from './hub-link.ts';
import { createTerminalViewers } from './terminal-viewers.ts';
import type { PushNotifier } from '../push/notifier.ts';
import { createPreAuthGate, PRE_AUTH_TIMEOUT_MS } from './pre-auth.ts';
import { handshakeGuard, type OriginPolicy } from './origin.ts';
import { createAuthFailures, type AuthFailures } from '../auth/failures.ts';

export const SOCKET_PATH = '/socket.io/';
/** How often live sockets are re-checked against their token. `tether token revoke` runs in another
 *  process, so the hub cannot be told; 30 s bounds how long a revoked device keeps listening. */
export const REVOCATION_CHECK_MS = 30_000;

function connectError(message: string, code: ErrorCode | 'protocol_mismatch'): Error {
  const error = new Error(message) as Error & { data?: unknown };
  error.data = { code };
  return error;
}

function authenticate(options: {
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
        // A read-only share link: one session, watch and terminal only (web.ts enforces it).
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

export function createSocketServer(options: {
  store: Store;
  resolver: CallerResolver;
  revocationCheckMs?: number;
  shareLinks?: ShareLinks;
  /** Grace before a vanished runner's pending requests are withdrawn (default 30 s). */
  runnerGoneGraceMs?: number;
  /** The most output kept per terminal (default DEFAULT_TERMINAL_LOG_BYTES, 4 MiB). */
  terminalLogBytes?: number;
  /** All live terminals' logs together (default DEFAULT_TERMINAL_MEMORY_BYTES, 256 MiB). */
  terminalMemoryBytes?: number;
  /** Web push: sees every namespace fact, pushes when no tab of the namespace is visible. */
  push?: PushNotifier;
  /** Web shells on machines whose daemon allows them (`tether hub --enable-shell`; default off). */
  shell?: boolean;
  /** Several hubs behind one URL (cluster/cluster.ts): the adapter spanning them, this hub's own
   *  URL (known once it is bound) and the secret hubs link to each other with. */
  cluster?: { adapter: Parameters<Server['adapter']>[0]; url: () => string; linkSecret: string };
  /** Browser origins besides the hub's own (`--allowed-origin`), and whether to believe the proxy's
   *  X-Forwarded-Host and X-Forwarded-For. */
  origins?: OriginPolicy;
  /** Failed credentials, shared with the REST API (one limit for every way in). */
  authFailures?: AuthFailures;
}) {
  const io = new Server({ serveClient: false, maxHttpBufferSize: MAX_PAYLOAD_BYTES, connectTimeout: PRE_AUTH_TIMEOUT_MS });
  const engine = new Engine({
    path: SOCKET_PATH,
    maxHttpBufferSize: MAX_PAYLOAD_BYTES,
    allowRequest: handshakeGuard(options.origins ?? { extraOrigins: new Set(), trustProxy: false }),
  });
  if (options.cluster) io.adapter(options.cluster.adapter);
  io.bind(engine);
  const engineHandler = engine.handler();
  const preAuth = createPreAuthGate<{ transport: object }>({ key: (ws) => ws.data.transport });
  const failures = options.authFailures ?? createAuthFailures();
  const trustProxy = options.origins?.trustProxy ?? false;
  const addressOf = (socket: Socket): string => {
    const forwarded = trustProxy ? String(socket.handshake.headers['x-forwarded-for'] ?? '').split(',').map((h) => h.trim()).filter(Boolean).at(-1)?.slice(0, 64) : undefined;
    return forwarded ?? preAuth.addressOf(socket.conn.transport) ?? 'unknown';
  };
  // The main namespace has no auth middleware: nobody may join it, so it never counts as a login.
  io.of('/').use((_socket, next) => next(connectError('no such namespace', 'not_found')));
  const onError = (event: string, error: unknown) => {
    console.error(`tether hub: socket event ${event} failed: ${error instanceof Error ? error.message : String(error)}`);
  };
  const hubUrl = options.cluster?.url ?? (() => '');
  const bus = createClusterBus({ io, enabled: options.cluster !== undefined, onError });
  const readiness = createSessionReadiness();
  // Spawn and stop waits may sit on another hub than the runner's: every hub hears every update.
  bus.on('session-updated', ({ namespace, session }) => readiness.sessionUpdated(namespace, session));
  const told = createBroadcast({ io });
  const toNamespace = told.toNamespace.bind(told);
  told.toNamespace = ((ns, event, payload) => {
    toNamespace(ns, event, payload);
    if (event === 'session:updated') bus.tell('session-updated', { namespace: ns, session: payload as Session });
  }) as typeof told.toNamespace;
  const observed = observeSessionUpdates(told, readiness);
  const broadcast = options.push
    ? options.push.observe(observed, {
        // A browser tab of the namespace on screen (client:visibility); share links do not count.
        anyVisible: async (ns) =>
          (await io.of('/web').in(namespaceRoom(ns)).fetchSockets()).some((s) => {
            const data = s.data as HubSocketData | undefined;
            return data?.client === 'web' && data.visible === true;
          }),
      })
    : observed;
  const web = io.of('/web');
  const cli = io.of('/cli');
  const daemons = createDaemonDirectory({ cli, clustered: options.cluster !== undefined });
  const machines = createMachineRegistry({ store: options.store });
  const terminals = createTerminalRegistry({
    ...(options.terminalLogBytes !== undefined ? { maxBytesPerTerminal: options.terminalLogBytes } : {}),
    ...(options.terminalMemoryBytes !== undefined ? { terminalMemoryBytes: options.terminalMemoryBytes } : {}),
    finalScreens: storedFinalScreens({ store: options.store }),
    // Viewer ids are /web socket ids, and every socket is in the room named by its id: one encode,
    // many writes. Viewers of other hubs get one message per link. Never through the adapter
    // (`local`): these sockets are here, and terminal bytes are too many for NOTIFY.
    fanout: (_ns, sessionId) => (viewerIds, offset, data) => {
      const local: string[] = [];
      const remote = new Map<Socket, string[]>();
      for (const id of viewerIds) {
        const link = links?.linkOf(id, sessionId);
        if (link) remote.set(link, [...(remote.get(link) ?? []), id]);
        else local.push(id);
      }
      if (local.length > 0) web.local.to(local).emit('terminal:output', { sessionId, offset, data });
      for (const [link, ids] of remote) link.emit('link:output', { sessionId, viewerIds: ids, offset, data });
    },
    // A terminal room speaks for the runner only on the runner's own hub (`local`): a room that
    // waits on another hub must not tell the runner a viewer count of its own.
    runnerPort: (ns, sessionId) => {
      const runner = () => cli.local.to(runnerRoom(ns, sessionId));
      return {
        input: (data, from) => runner().emit('terminal:input', { sessionId, data, ...(from?.desk ? { desk: true } : {}) }),
        resize: ({ cols, rows }) => runner().emit('terminal:resize', { sessionId, cols, rows }),
        viewers: (count) => runner().emit('terminal:viewers', { sessionId, count }),
        requestSnapshot: () => runner().emit('terminal:snapshot-request', { sessionId }),
      };
    },
  });
  const viewers = createTerminalViewers({
    terminals,
    broadcast,
    web,
    cli,
    cluster: options.cluster ? { url: options.cluster.url, linkSecret: options.cluster.linkSecret } : null,
    onError,
  });
  viewers.setSessionLookup(async (namespace, sessionId) => options.store.getSession({ namespace, sessionId }));
  bus.on('terminal-moved', ({ namespace, sessionId, hubUrl: to }) => viewers.moved(namespace, sessionId, to));
  const links = options.cluster
    ? createHubLinkServer({ nsp: io.of('/hub'), cli, linkSecret: options.cluster.linkSecret, store: options.store, terminals, broadcast, onError })
    : null;
  const control = createSessionControl({ store: options.store, broadcast, daemons, readiness, terminals, bus });
  const shells = createShellRelay({ enabled: options.shell ?? false, store: options.store, daemons, web, bus });

  // A runner (re)registered here: viewers of its session on other hubs (and relayed ones here)
  // move their stream to this hub.
  const runnerRegistered = (ns: Namespace, sessionId: string) => {
    viewers.moved(ns, sessionId, hubUrl());
    bus.tell('terminal-moved', { namespace: ns, sessionId, hubUrl: hubUrl() });
  };
  // Authenticated on any namespace: the connection may send anything (pre-auth.ts).
  for (const nsp of [cli, web, ...(links ? [io.of('/hub')] : [])]) nsp.on('connection', (socket) => preAuth.authenticated(socket.conn.transport));
  cli.use(authenticate({ resolver: options.resolver, accept: ['token'], hubUrl, failures, addressOf }));
  cli.on('connection', (socket) => bindCliSocket({ socket: socket as HubSocket, store: options.store, broadcast, machines, terminals, onError, daemons, control, shells, runnerRegistered, ...(options.runnerGoneGraceMs !== undefined ? { runnerGoneGraceMs: options.runnerGoneGraceMs } : {}) }));

  web.use(authenticate({ resolver: options.resolver, accept: ['token', 'web-session'], hubUrl, failures, addressOf, ...(options.shareLinks ? { shareLinks: options.shareLinks } : {}) }));
  // A revoked share link loses its live connections at once, not at the next sweep (on every hub).
  const dropShare = (jti: string) => {
    for (const socket of web.sockets.values()) if ((socket.data as HubSocketData | undefined)?.share?.jti === jti) socket.disconnect(true);
  };
  bus.on('share-revoked', ({ jti }) => dropShare(jti));
  const stopShareWatch = options.shareLinks?.onRevoked((jti) => {
    dropShare(jti);
    bus.tell('share-revoked', { jti });
  });
  web.on('connection', (socket) => bindWebSocket({ socket: socket as HubSocket, store: options.store, broadcast, viewers, onError, control, shells }));

  const sweep = async () => {
    const now = Date.now();
    for (const nsp of [cli, web]) {
      for (const socket of [...nsp.sockets.values()]) {
        const data = socket.data as HubSocketData | undefined;
        if (data?.share) {
          if (!(await options.shareLinks?.stillValid({ jti: data.share.jti, namespace: data.caller.namespace, tokenId: data.share.tokenId }, now))) socket.disconnect(true);
        } else if (data?.caller && !(await options.resolver.stillValid(data.caller, now))) socket.disconnect(true);
      }
    }
  };
  // One sweep at a time: a slow store must not stack sweeps up.
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweep()
      .catch((error: unknown) => onError('revocation sweep', error))
      .finally(() => {
        sweeping = false;
      });
  }, options.revocationCheckMs ?? REVOCATION_CHECK_MS);
  sweeper.unref();

  return {
    io,
    engine,
    /** For Bun.serve: the engine's WebSocket handler behind the pre-auth gate. */
    handler: { idleTimeout: engineHandler.idleTimeout, websocket: preAuth.wrap(engineHandler.websocket as never) },
    preAuth,
    terminals,
    /** Every namespace fact, as the push notifier observes it (REST answers announce through it). */
    broadcast,
    async stop(): Promise<void> {
      clearInterval(sweeper);
      stopShareWatch?.();
      readiness.stop();
      viewers.stop();
      io.disconnectSockets(true);
      for (const nsp of [cli, web]) nsp.disconnectSockets(true);
      // Closes the engine and the adapter too (it says goodbye to the other hubs and stops listening).
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}
