// share.ts: what a read-only share-link connection may see and do on `/web`: its one session (every
// other id is "not found", exactly like a missing one), watched with its terminal, never a shell
// or a command.
import { ackError, type Namespace, type Session } from '@tether/shared';
import type { HubSocket } from '../peers/peer.ts';

/** What a read-only share link may do: watch its one session and its terminal. */
const SHARE_ALLOWED: ReadonlySet<string> = new Set(['session:watch', 'session:unwatch', 'terminal:subscribe', 'terminal:unsubscribe', 'terminal:ack']);

/** The sessions this socket may see: its namespace's, or a share link's one session. */
export function sessionLookup(socket: HubSocket, sessions: { get(ns: Namespace, sessionId: string): Promise<Session | null> }) {
  const share = socket.data.share;
  const ns = socket.data.caller.namespace;
  return async (sessionId: string): Promise<Session | null> => (share && share.sessionId !== sessionId ? null : await sessions.get(ns, sessionId));
}

/** For a read-only connection every other handler answers `forbidden` without acting. */
export function readOnlyIf<H extends Record<string, (payload: never) => unknown>>(readOnly: boolean, handlers: H): H {
  if (!readOnly) return handlers;
  const out: Record<string, unknown> = {};
  for (const [event, handler] of Object.entries(handlers)) {
    out[event] = SHARE_ALLOWED.has(event) ? handler : () => ackError('forbidden', 'this share link is read-only');
  }
  return out as H;
}
