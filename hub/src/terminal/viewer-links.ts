// viewer-links.ts: this hub's socket.io links to the other hubs of its cluster that hold a terminal
// its viewers watch: one link per hub, opened on first need, closed when that hub goes away (its
// viewers are then handed back through `onDrop`). What arrives on a link is handed to the viewer it
// names, if that viewer is still watching through this link (`viewerOf`).
import { io as connect, type Socket as LinkSocket } from 'socket.io-client';
import type { Namespace as IoNamespace } from 'socket.io';
import { ackError, TerminalLinkOutputSchema, PROTOCOL_VERSION, TerminalSnapshotSchema, type Ack, type TerminalLinkAcks } from '@tether/shared';
import type { HubSocket } from '../peers/peer.ts';

/** Connecting to another hub of the cluster (same network, no TLS handshake through a balancer). */
const LINK_TIMEOUT_MS = 3_000;

export type Link = { url: string; socket: LinkSocket; ready: Promise<boolean>; viewers: Set<string> };

export type ViewerLinks = ReturnType<typeof createViewerLinks>;

export function createViewerLinks(options: {
  linkSecret: string;
  web: IoNamespace;
  /** The viewer's socket when it watches through `link` for that session, else null. */
  viewerOf: (link: Link, viewerId: string, sessionId: string) => HubSocket | null;
  /** A link went away (its hub died or stopped) after it was dropped from the pool. */
  onDrop: (link: Link) => void;
}) {
  const links = new Map<string, Link>();

  const drop = (link: Link) => {
    if (links.get(link.url) !== link) return;
    links.delete(link.url);
    link.socket.close();
    options.onDrop(link);
  };

  const listen = (link: Link) => {
    const { socket } = link;
    socket.on('link:output', (payload: unknown) => {
      const parsed = TerminalLinkOutputSchema.safeParse(payload);
      if (!parsed.success) return;
      const { sessionId, viewerIds, offset, data } = parsed.data;
      const ours = viewerIds.map((id) => options.viewerOf(link, id, sessionId)).filter((s): s is HubSocket => s !== null);
      if (ours.length === 1) ours[0]!.emit('terminal:output', { sessionId, offset, data });
      // Viewers in step: encoded once for all of them, as the owning hub does for its own.
      else if (ours.length > 1) options.web.local.to(ours.map((s) => s.id)).emit('terminal:output', { sessionId, offset, data });
    });
    socket.on('link:snapshot', (payload: { viewerId?: unknown; snapshot?: unknown }) => {
      const snapshot = TerminalSnapshotSchema.safeParse(payload?.snapshot);
      if (!snapshot.success || typeof payload.viewerId !== 'string') return;
      options.viewerOf(link, payload.viewerId, snapshot.data.sessionId)?.emit('terminal:snapshot', snapshot.data);
    });
    socket.on('link:size', (payload: { viewerId?: unknown; notice?: { sessionId?: unknown } }) => {
      const notice = payload?.notice;
      if (typeof payload?.viewerId !== 'string' || typeof notice?.sessionId !== 'string') return;
      options.viewerOf(link, payload.viewerId, notice.sessionId)?.emit('terminal:size', notice as never);
    });
    socket.on('disconnect', () => drop(link));
    socket.on('connect_error', () => drop(link));
  };

  return {
    /** The link to the hub at `url`, opened when there is none. */
    to(url: string): Link {
      const existing = links.get(url);
      if (existing) return existing;
      const socket = connect(`${url.replace(/\/+$/, '')}/hub`, {
        auth: { protocol: PROTOCOL_VERSION.major, link: options.linkSecret },
        transports: ['websocket'],
        reconnection: false,
        timeout: LINK_TIMEOUT_MS,
      });
      const link: Link = {
        url,
        socket,
        viewers: new Set(),
        ready: new Promise((resolve) => {
          socket.once('connect', () => resolve(true));
          socket.once('connect_error', () => resolve(false));
        }),
      };
      links.set(url, link);
      listen(link);
      return link;
    },

    async ask<E extends keyof TerminalLinkAcks>(link: Link, event: E, payload: object): Promise<Ack<TerminalLinkAcks[E]>> {
      if (!(await link.ready)) return ackError('internal', 'the hub holding this terminal cannot be reached');
      try {
        return (await link.socket.timeout(LINK_TIMEOUT_MS).emitWithAck(event, payload)) as Ack<TerminalLinkAcks[E]>;
      } catch {
        return ackError('internal', 'the hub holding this terminal did not answer');
      }
    },

    /** Closes every link without handing their viewers back (the hub is stopping). */
    closeAll(): void {
      for (const link of [...links.values()]) {
        links.delete(link.url);
        link.socket.close();
      }
    },
  };
}
