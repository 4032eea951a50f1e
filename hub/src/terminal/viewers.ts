// viewers.ts: a /web socket watching a session's terminal, wherever its runner is. The
// room (and its byte log) lives on the hub the runner is connected to. A viewer on that hub joins
// it directly; a viewer on another hub of the cluster watches through a terminal link to that hub
// (cluster/terminal-link.ts), which joins it under its own socket id, so offsets, snapshots and flow control are
// the room's either way. When a runner registers somewhere (`moved`), every viewer of that session
// that is not with it yet moves over and gets a fresh snapshot; when a link drops (that hub died),
// its viewers look again and, until the runner is back, wait in a local room.
//
//   terminal:subscribe ─► runner here (or nowhere)? ─► local room.join
//                      └► runner on hub A ─► link(A).link:subscribe ─► A's room
//   link:output/snapshot/size ─► this viewer's socket (viewers in step: one local broadcast)
import type { Namespace as IoNamespace } from 'socket.io';
import {
  ackError,
  isFinalStatus,
  runnerRoom,
  type Ack,
  type AckError,
  type TerminalLinkAcks,
  type Namespace,
  type Session,
  type TerminalSize,
} from '@tether/shared';
import type { RunnerCommands } from '../facts/runners.ts';
import type { TerminalRegistry } from './registry.ts';
import type { ViewerSink } from './room.ts';
import type { HubSocket, HubSocketData } from '../peers/peer.ts';
import { echoMark } from './echo-trace.ts';
import { createViewerLinks, type Link, type ViewerLinks } from './viewer-links.ts';

/** Finding the runner's hub is one NOTIFY round trip; a hub that just died answers nothing. */
const LOCATE_TIMEOUT_MS = 2_000;
type Linked = { ns: Namespace; sessionId: string; socket: HubSocket; link: Link };
/** The key of a viewer's linked stream of a session. */
const key = (viewerId: string, sessionId: string) => `${viewerId}\u0000${sessionId}`;

function linkedThrough(o: { linked: Map<string, Linked>; link: Link; viewerId: string; sessionId: string }): HubSocket | null {
  const entry = o.linked.get(key(o.viewerId, o.sessionId));
  return entry && entry.link === o.link ? entry.socket : null;
}

const sinkFor = (socket: HubSocket, sessionId: string): ViewerSink => ({
  bytes: (offset, data) => (socket.emit('terminal:output', { sessionId, offset, data }), echoMark('hub_sent')),
  snapshot: (snapshot) => socket.emit('terminal:snapshot', snapshot),
  size: (notice) => socket.emit('terminal:size', { sessionId, ...notice }),
});

/** 'local', or the URL of the hub the session's runner is connected to. */
async function locateRunner(o: { cli: IoNamespace; cluster: { url: () => string } | null; ns: Namespace; sessionId: string }): Promise<string> {
  if (!o.cluster) return 'local';
  const room = runnerRoom(o.ns, o.sessionId);
  if ((o.cli.adapter.rooms.get(room)?.size ?? 0) > 0) return 'local';
  try {
    const found = await o.cli.in(room).timeout(LOCATE_TIMEOUT_MS).fetchSockets();
    const url = (found[0]?.data as HubSocketData | undefined)?.hubUrl;
    return url && url !== o.cluster.url() ? url : 'local';
  } catch {
    return 'local';
  }
}

/** The viewers of a session that must follow its runner to `hubUrl`: linked ones not through that
 *  hub's link (all of them when it is this hub), and ours waiting in a local room for it. */
function moversOf(o: { linked: Map<string, Linked>; ns: Namespace; sessionId: string; hubUrl: string; here: boolean; waiting: string[]; web: IoNamespace }): HubSocket[] {
  const movers: HubSocket[] = [];
  for (const entry of o.linked.values()) {
    if (entry.ns === o.ns && entry.sessionId === o.sessionId && (o.here || entry.link.url !== o.hubUrl)) movers.push(entry.socket);
  }
  for (const viewerId of o.waiting) {
    const socket = o.web.sockets.get(viewerId) as HubSocket | undefined;
    if (socket && !o.linked.has(key(viewerId, o.sessionId))) movers.push(socket);
  }
  return movers;
}

export type TerminalViewers = ReturnType<typeof createTerminalViewers>;

export function createTerminalViewers(options: {
  terminals: TerminalRegistry;
  runners: RunnerCommands;
  /** How a rehomed viewer's session is looked up again. */
  sessionOf: (ns: Namespace, sessionId: string) => Promise<Session | null>;
  web: IoNamespace;
  cli: IoNamespace;
  /** This hub's own URL and the link secret; null for a hub without a cluster. */
  cluster: { url: () => string; linkSecret: string } | null;
  onError: (what: string, error: unknown) => void;
}) {
  const { terminals } = options;
  /** viewerId␀sessionId → watching through a terminal link. */
  const linked = new Map<string, Linked>();

  /** A link went away (its hub died or stopped): its viewers look for the runner again. */
  const onDrop = (link: Link) => {
    for (const k of [...link.viewers]) {
      const entry = linked.get(k);
      if (!entry || entry.link !== link) continue;
      linked.delete(k);
      // Wait here, without asking the other hubs: the dead hub is still counted by the adapter
      // for a few seconds, so a lookup would stall. The runner's next registration moves us.
      void rehome(entry.socket, entry.sessionId, { waitHere: true });
    }
  };
  const links: ViewerLinks | null = options.cluster
    ? createViewerLinks({
        linkSecret: options.cluster.linkSecret,
        web: options.web,
        viewerOf: (link, viewerId, sessionId) => linkedThrough({ linked, link, viewerId, sessionId }),
        onDrop,
      })
    : null;

  /** Stops this viewer's stream of a session, wherever it comes from. */
  const detach = (socket: HubSocket, sessionId: string) => {
    const ns = socket.data.caller.namespace;
    const k = key(socket.id, sessionId);
    const entry = linked.get(k);
    if (entry) {
      linked.delete(k);
      entry.link.viewers.delete(k);
      entry.link.socket.emit('link:unsubscribe', { namespace: ns, sessionId, viewerId: socket.id });
    }
    terminals.find(ns, sessionId)?.leave(socket.id);
  };

  const subscribeLocal = async (socket: HubSocket, current: Session, since: number | undefined): Promise<Ack<TerminalLinkAcks['link:subscribe']>> => {
    const ns = socket.data.caller.namespace;
    const room = terminals.get(ns, current.id);
    if (isFinalStatus(current.status) && !room.ended) await terminals.ended(ns, current.id);
    if (room.ended && !room.lastSnapshot) return ackError('gone', 'session has ended and its final screen is not kept');
    const mode = room.join({ viewerId: socket.id, sink: sinkFor(socket, current.id), canWrite: !socket.data.share, ...(since !== undefined ? { since } : {}) });
    return { ok: true, mode, offset: mode === 'bytes' ? (since ?? 0) : (room.lastSnapshot?.offset ?? 0) };
  };

  const subscribe = async (socket: HubSocket, current: Session, since: number | undefined): Promise<Ack<TerminalLinkAcks['link:subscribe']>> => {
    const ns = socket.data.caller.namespace;
    const where = isFinalStatus(current.status) ? 'local' : await locateRunner({ cli: options.cli, cluster: options.cluster, ns, sessionId: current.id });
    const k = key(socket.id, current.id);
    const previous = linked.get(k);
    if (where === 'local' || (previous && previous.link.url !== where)) detach(socket, current.id);
    if (where !== 'local') {
      terminals.find(ns, current.id)?.leave(socket.id);
      const link = links!.to(where);
      // Recorded before asking: the owner may send the snapshot before its ack.
      linked.set(k, { ns, sessionId: current.id, socket, link });
      link.viewers.add(k);
      const ack = await links!.ask(link, 'link:subscribe', { namespace: ns, sessionId: current.id, viewerId: socket.id, canWrite: !socket.data.share, ...(since !== undefined ? { since } : {}) });
      if (ack.ok) return ack;
      if (linked.get(k)?.link === link) {
        linked.delete(k);
        link.viewers.delete(k);
      }
      // The runner moved on meanwhile, or that hub is gone: wait here for the runner's next move.
    }
    return subscribeLocal(socket, current, since);
  };

  /** Moves a viewer's stream to wherever the runner is now; it starts again from a snapshot. */
  const rehome = async (socket: HubSocket, sessionId: string, how: { waitHere?: boolean } = {}) => {
    if (!socket.connected || !socket.data.terminals.has(sessionId)) return;
    detach(socket, sessionId);
    try {
      // The viewer's session was checked at subscribe; a session that vanished since is left alone.
      const current = await options.sessionOf(socket.data.caller.namespace, sessionId);
      if (current && how.waitHere) await subscribeLocal(socket, current, undefined);
      else if (current) await subscribe(socket, current, undefined);
    } catch (error) {
      options.onError('terminal rehome', error);
    }
  };

  return {
    subscribe,
    unsubscribe: detach,
    ...viewerCommands({ terminals, runners: options.runners, links, linkedEntry: (socket, sessionId) => linked.get(key(socket.id, sessionId)) ?? null }),
    viewerGone(socket: HubSocket): void {
      for (const sessionId of socket.data.terminals) detach(socket, sessionId);
    },
    /** A session's runner registered on the hub at `hubUrl`: viewers not with it yet move there. */
    moved(ns: Namespace, sessionId: string, hubUrl: string): void {
      const here = options.cluster ? hubUrl === options.cluster.url() : true;
      const movers = moversOf({ linked, ns, sessionId, hubUrl, here, waiting: here ? [] : (terminals.find(ns, sessionId)?.viewerIds ?? []), web: options.web });
      for (const socket of movers) void rehome(socket, sessionId);
    },
    stop(): void {
      links?.closeAll();
      linked.clear();
    },
  };
}

/** What a viewer does to the terminal it watches (acks, keys, a size, being the desk): done on its
 *  room here, or asked of the hub its stream comes from through a terminal link. */
function viewerCommands(o: {
  terminals: TerminalRegistry;
  runners: RunnerCommands;
  links: ViewerLinks | null;
  linkedEntry: (socket: HubSocket, sessionId: string) => Linked | null;
}) {
  return {
    /** Whether this socket watches the session through another hub. */
    isLinked: (socket: HubSocket, sessionId: string) => o.linkedEntry(socket, sessionId) !== null,
    ack(socket: HubSocket, sessionId: string, offset: number): void {
      const entry = o.linkedEntry(socket, sessionId);
      if (entry) entry.link.socket.emit('link:ack', { namespace: entry.ns, sessionId, viewerId: socket.id, offset });
      else o.terminals.find(socket.data.caller.namespace, sessionId)?.ack(socket.id, offset);
    },
    /** This socket watches the session's live terminal on this hub: its subscribe checked the
     *  namespace, and the room ends when the session does, so a key needs no store lookup. */
    liveHere(socket: HubSocket, sessionId: string): boolean {
      if (o.linkedEntry(socket, sessionId)) return false;
      const room = o.terminals.find(socket.data.caller.namespace, sessionId);
      return room !== null && !room.ended && room.hasViewer(socket.id);
    },
    async input(socket: HubSocket, sessionId: string, data: string): Promise<TerminalLinkAcks['link:input']['result'] | AckError> {
      const entry = o.linkedEntry(socket, sessionId);
      if (!entry) return o.terminals.find(socket.data.caller.namespace, sessionId)?.input(socket.id, data) ?? 'not-joined';
      const ack = await o.links!.ask(entry.link, 'link:input', { namespace: entry.ns, sessionId, viewerId: socket.id, data });
      return ack.ok ? ack.result : ack;
    },
    async resize(socket: HubSocket, sessionId: string, size: TerminalSize, fit: boolean): Promise<TerminalLinkAcks['link:resize']['result'] | AckError> {
      const entry = o.linkedEntry(socket, sessionId);
      if (!entry) return o.terminals.find(socket.data.caller.namespace, sessionId)?.resize(socket.id, size, fit) ?? 'not-joined';
      const ack = await o.links!.ask(entry.link, 'link:resize', { namespace: entry.ns, sessionId, viewerId: socket.id, ...size, fit });
      return ack.ok ? ack.result : ack;
    },
    /** Marks the viewer as a desk terminal (or not) and tells the runner; false when not joined. */
    async desk(socket: HubSocket, sessionId: string, desk: { attached: boolean; cols?: number; rows?: number }): Promise<boolean> {
      const ns = socket.data.caller.namespace;
      const entry = o.linkedEntry(socket, sessionId);
      if (entry) return (await o.links!.ask(entry.link, 'link:desk', { namespace: ns, sessionId, viewerId: socket.id, ...desk })).ok;
      const room = o.terminals.find(ns, sessionId);
      if (!room?.deskViewer(socket.id, desk.attached)) return false;
      o.runners.send(ns, sessionId, 'terminal:desk', { sessionId, attached: desk.attached, ...(desk.attached && desk.cols && desk.rows ? { cols: desk.cols, rows: desk.rows } : {}) });
      return true;
    },
  };
}
