// peer.ts: a connected socket once authentication let it in (sockets/authenticate.ts): who is on
// the other end and what the hub remembers about the connection. Edges and the domain rooms that
// forward to a connection (terminal viewers, daemons, shells) share this one shape.
import type { Socket } from 'socket.io';
import type { ClientKind } from '@tether/shared';
import type { Caller } from '../auth/namespace.ts';

/** What the per-connection auth middleware (server.ts) leaves on `socket.data`. */
export type HubSocketData = {
  caller: Caller;
  client: ClientKind;
  device: string | null;
  /** Sessions this runner socket registered (it sits in their runner rooms). */
  sessions: Set<string>;
  /** Terminals this viewer subscribed to. */
  terminals: Set<string>;
  machineId: string | null;
  /** Set for a read-only share-link connection: the one session it may watch. */
  share: { sessionId: string; jti: string; tokenId: string | null } | null;
  /** When the socket connected (the newest daemon socket of a machine wins, across hubs). */
  connectedAt: number;
  /** The URL other hubs reach this socket's hub at (for the hub-to-hub terminal link). */
  hubUrl: string;
  /** A browser tab's last `client:visibility`; web push waits while any tab of the namespace is visible. */
  visible?: boolean;
};

export type HubSocket = Socket & { data: HubSocketData };
