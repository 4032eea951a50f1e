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
  type ErrorCode,
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
import type { PushNotifier } from '../push/notifier.ts';

export const SOCKET_PATH = '/socket.io/';
/** How often live sockets are re-checked against their token. `tether token revoke` runs in another
 *  process, so the hub cannot be told; 30 s bounds how long a revoked device keeps listening. */
export const REVOCATION_CHECK_MS = 30_000;

function connectError(message: string, code: ErrorCode | 'protocol_mismatch'): Error {
  const error = new Error(message) as Error & { data?: unknown };
  error.data = { code };
  return error;
}

function authenticate(options: { resolver: CallerResolver; accept: ReadonlyArray<Caller['via']>; shareLinks?: ShareLinks }) {
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
          share = { sessionId: claims.sessionId, jti: claims.jti };
          caller = { namespace: claims.namespace, tokenId: `share:${claims.jti}`, label: 'share link', via: 'web-session', expiresAt: claims.expiresAt };
        }
      }
      if (!caller) return next(connectError('unauthorized', 'unauthorized'));
      const data: HubSocketData = {
        caller,
        client: parsed.data.client,
        device: parsed.data.device ?? null,
        sessions: new Set(),
        terminals: new Set(),
        machineId: null,
        share,
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
  /** Bytes of output kept per terminal (default DEFAULT_TERMINAL_LOG_BYTES, 1 MiB). */
  terminalLogBytes?: number;
  /** Web push: sees every namespace fact, pushes when no tab of the namespace is visible. */
  push?: PushNotifier;
  /** Web shells on machines whose daemon allows them (`tether hub --enable-shell`; default off). */
  shell?: boolean;
}) {
  const io = new Server({ serveClient: false, maxHttpBufferSize: MAX_PAYLOAD_BYTES });
  const engine = new Engine({ path: SOCKET_PATH, maxHttpBufferSize: MAX_PAYLOAD_BYTES });
  io.bind(engine);
  const readiness = createSessionReadiness();
  const observed = observeSessionUpdates(createBroadcast({ io }), readiness);
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
  const daemons = createDaemonDirectory();
  const machines = createMachineRegistry({ store: options.store });
  const terminals = createTerminalRegistry({
    ...(options.terminalLogBytes !== undefined ? { maxBytesPerTerminal: options.terminalLogBytes } : {}),
    finalScreens: storedFinalScreens({ store: options.store }),
    // Viewer ids are /web socket ids, and every socket is in the room named by its id: one encode,
    // many writes.
    fanout: (_ns, sessionId) => (viewerIds, offset, data) => web.to(viewerIds).emit('terminal:output', { sessionId, offset, data }),
    runnerPort: (ns, sessionId) => ({
      input: (data, from) => broadcast.toRunner(ns, sessionId, 'terminal:input', { sessionId, data, ...(from?.desk ? { desk: true } : {}) }),
      resize: ({ cols, rows }) => broadcast.toRunner(ns, sessionId, 'terminal:resize', { sessionId, cols, rows }),
      viewers: (count) => broadcast.toRunner(ns, sessionId, 'terminal:viewers', { sessionId, count }),
      requestSnapshot: () => broadcast.toRunner(ns, sessionId, 'terminal:snapshot-request', { sessionId }),
    }),
  });
  const onError = (event: string, error: unknown) => {
    console.error(`tether hub: socket event ${event} failed: ${error instanceof Error ? error.message : String(error)}`);
  };
  const control = createSessionControl({ store: options.store, broadcast, daemons, readiness, terminals });
  const shells = createShellRelay({ enabled: options.shell ?? false, store: options.store, daemons });

  const cli = io.of('/cli');
  cli.use(authenticate({ resolver: options.resolver, accept: ['token'] }));
  cli.on('connection', (socket) => bindCliSocket({ socket: socket as HubSocket, store: options.store, broadcast, machines, terminals, onError, daemons, control, shells, ...(options.runnerGoneGraceMs !== undefined ? { runnerGoneGraceMs: options.runnerGoneGraceMs } : {}) }));

  const web = io.of('/web');
  web.use(authenticate({ resolver: options.resolver, accept: ['token', 'web-session'], ...(options.shareLinks ? { shareLinks: options.shareLinks } : {}) }));
  // A revoked share link loses its live connections at once, not at the next sweep.
  const stopShareWatch = options.shareLinks?.onRevoked((jti) => {
    for (const socket of web.sockets.values()) if ((socket.data as HubSocketData | undefined)?.share?.jti === jti) socket.disconnect(true);
  });
  web.on('connection', (socket) => bindWebSocket({ socket: socket as HubSocket, store: options.store, broadcast, terminals, onError, control, shells }));

  const sweep = () => {
    const now = Date.now();
    for (const nsp of [cli, web]) {
      for (const socket of nsp.sockets.values()) {
        const data = socket.data as HubSocketData | undefined;
        if (data?.share) {
          if (!options.shareLinks?.stillValid(data.share.jti, now)) socket.disconnect(true);
        } else if (data?.caller && !options.resolver.stillValid(data.caller, now)) socket.disconnect(true);
      }
    }
  };
  const sweeper = setInterval(() => {
    try {
      sweep();
    } catch (error) {
      onError('revocation sweep', error);
    }
  }, options.revocationCheckMs ?? REVOCATION_CHECK_MS);
  sweeper.unref();

  return {
    io,
    engine,
    terminals,
    /** Every namespace fact, as the push notifier observes it (REST answers announce through it). */
    broadcast,
    async stop(): Promise<void> {
      clearInterval(sweeper);
      stopShareWatch?.();
      readiness.stop();
      io.disconnectSockets(true);
      for (const nsp of [cli, web]) nsp.disconnectSockets(true);
      engine.close();
    },
  };
}
