// terminal-link.ts: the `/hub` namespace, the owning side of the hub-to-hub terminal link. A runner's
// hub keeps its session's byte log (terminal/room.ts); a phone on another hub watches through that
// hub, which links here once (socket.io client, link secret from the cluster's database) and
// joins each of its viewers to the room as a viewer of ours. Offsets, snapshot-on-gap and per-viewer
// flow control are the room's, unchanged: the linking hub only passes bytes on one way and acks back.
//
//   phone ─/web─► hub B ─/hub link─► hub A (runner here): room.join(viewerId = B's socket id)
//   phone ◄────── hub B ◄─link:output {viewerIds} / link:snapshot / link:size── room sinks
//
// Invariants: a link is accepted only with the cluster's link secret (compared in constant time);
// every event is parsed with its shared schema; the session must be the named namespace's and its
// runner must be on this hub (otherwise the linking hub looks again); a link that drops leaves
// every room it joined.
import { timingSafeEqual } from 'node:crypto';
import type { Namespace as IoNamespace, Socket } from 'socket.io';
import {
  ackError,
  TerminalLinkEventSchemas,
  TerminalLinkHandshakeSchema,
  isFinalStatus,
  PROTOCOL_VERSION,
  runnerRoom,
  type TerminalLinkAcks,
  type Namespace,
  type Session,
} from '@tether/shared';
import type { TerminalRegistry } from '../terminal/registry.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import { handleSocketEvents } from '../peers/handle.ts';
import type { HubSocket } from '../peers/peer.ts';

type LinkedViewer = { ns: Namespace; sessionId: string; viewerId: string; desk: boolean };

export type TerminalLinkServer = ReturnType<typeof createTerminalLinkServer>;

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function createTerminalLinkServer(options: {
  nsp: IoNamespace;
  cli: IoNamespace;
  linkSecret: string;
  /** The session, if it is this namespace's. */
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  terminals: TerminalRegistry;
  runners: RunnerCommands;
  onError: (event: string, error: unknown) => void;
}) {
  const { terminals, runners } = options;
  /** viewerId␀sessionId → the link socket its stream goes out on. */
  const viewerLinks = new Map<string, Socket>();
  const key = (viewerId: string, sessionId: string) => `${viewerId}\u0000${sessionId}`;
  const runnerHere = (ns: Namespace, sessionId: string) => (options.cli.adapter.rooms.get(runnerRoom(ns, sessionId))?.size ?? 0) > 0;

  options.nsp.use((socket, next) => {
    const parsed = TerminalLinkHandshakeSchema.safeParse(socket.handshake.auth);
    if (!parsed.success || parsed.data.protocol !== PROTOCOL_VERSION.major || !sameSecret(parsed.data.link, options.linkSecret)) {
      const error = new Error('unauthorized') as Error & { data?: unknown };
      error.data = { code: 'unauthorized' };
      return next(error);
    }
    next();
  });

  options.nsp.on('connection', (socket) => {
    const linked = new Map<string, LinkedViewer>();
    const leave = (viewer: LinkedViewer) => {
      const k = key(viewer.viewerId, viewer.sessionId);
      linked.delete(k);
      if (viewerLinks.get(k) === socket) viewerLinks.delete(k);
      const room = terminals.find(viewer.ns, viewer.sessionId);
      if (viewer.desk) {
        room?.deskViewer(viewer.viewerId, false);
        runners.send(viewer.ns, viewer.sessionId, 'terminal:desk', { sessionId: viewer.sessionId, attached: false });
      }
      room?.leave(viewer.viewerId);
    };
    const find = (ns: Namespace, sessionId: string, viewerId: string) => {
      const viewer = linked.get(key(viewerId, sessionId));
      return viewer && viewer.ns === ns ? viewer : null;
    };
    handleSocketEvents<typeof TerminalLinkEventSchemas, TerminalLinkAcks>({
      // The link is a hub, not a person: handle.ts only needs the socket to listen on.
      socket: socket as HubSocket,
      schemas: TerminalLinkEventSchemas,
      onError: options.onError,
      handlers: {
        'link:subscribe': async ({ namespace: ns, sessionId, viewerId, since, canWrite }) => {
          const session = await options.sessionOf(ns, sessionId);
          if (!session) return ackError('not_found', 'no such session');
          if (!runnerHere(ns, sessionId)) return ackError('conflict', 'the runner of this session is not on this hub');
          const room = terminals.get(ns, sessionId);
          if (isFinalStatus(session.status) && !room.ended) await terminals.ended(ns, sessionId);
          const k = key(viewerId, sessionId);
          linked.set(k, { ns, sessionId, viewerId, desk: false });
          viewerLinks.set(k, socket);
          const mode = room.join({
            viewerId,
            canWrite,
            hops: 2,
            ...(since !== undefined ? { since } : {}),
            sink: {
              bytes: (offset, data) => socket.emit('link:output', { sessionId, viewerIds: [viewerId], offset, data }),
              snapshot: (snapshot) => socket.emit('link:snapshot', { viewerId, snapshot }),
              size: (notice) => socket.emit('link:size', { viewerId, notice: { sessionId, ...notice } }),
            },
          });
          return { ok: true, mode, offset: mode === 'bytes' ? (since ?? 0) : (room.lastSnapshot?.offset ?? 0) };
        },
        'link:unsubscribe': ({ namespace, sessionId, viewerId }) => {
          const viewer = find(namespace, sessionId, viewerId);
          if (viewer) leave(viewer);
          return { ok: true };
        },
        'link:ack': ({ namespace, sessionId, viewerId, offset }) => {
          if (find(namespace, sessionId, viewerId)) terminals.find(namespace, sessionId)?.ack(viewerId, offset);
          return { ok: true };
        },
        'link:input': ({ namespace, sessionId, viewerId, data }) => {
          const room = find(namespace, sessionId, viewerId) ? terminals.find(namespace, sessionId) : null;
          return { ok: true, result: room ? room.input(viewerId, data) : 'not-joined' };
        },
        'link:resize': ({ namespace, sessionId, viewerId, cols, rows, fit }) => {
          const room = find(namespace, sessionId, viewerId) ? terminals.find(namespace, sessionId) : null;
          return { ok: true, result: room ? room.resize(viewerId, { cols, rows }, fit) : 'not-joined' };
        },
        'link:desk': ({ namespace, sessionId, viewerId, attached, cols, rows }) => {
          const viewer = find(namespace, sessionId, viewerId);
          const room = viewer ? terminals.find(namespace, sessionId) : null;
          if (!viewer || !room?.deskViewer(viewerId, attached)) return ackError('conflict', 'subscribe to the terminal first');
          viewer.desk = attached;
          runners.send(namespace, sessionId, 'terminal:desk', { sessionId, attached, ...(attached && cols && rows ? { cols, rows } : {}) });
          return { ok: true };
        },
      },
    });
    socket.on('disconnect', () => {
      for (const viewer of [...linked.values()]) leave(viewer);
    });
  });

  return {
    /** The link a viewer of this session watches over, if it is another hub's viewer. */
    linkOf(viewerId: string, sessionId: string): Socket | null {
      return viewerLinks.get(key(viewerId, sessionId)) ?? null;
    },
  };
}
