// web-terminal.ts: the `/web` terminal events of one socket: subscribe, input, resize, the desk
// terminal (`tether attach`) and flow-control acks, handed to terminal/viewers.ts (which knows
// whether the stream comes from this hub's room or the runner's hub).
// Invariants: one viewer per socket per terminal (its socket id: a second tab or device is another
// viewer); input and resize need a live session this socket subscribed to; a socket that leaves
// (or unsubscribes) stops being the desk of its sessions.
import { ackError, isFinalStatus, type Ack, type AckError, type Session, type WebAcks, type WebEventSchemas } from '@tether/shared';
import type { z } from 'zod';
import type { TerminalViewers } from '../terminal/viewers.ts';
import type { HubSocket } from '../peers/peer.ts';
import { echoMark } from '../terminal/echo-trace.ts';

const NO_SESSION = 'no such session';
type TerminalEvent = 'terminal:subscribe' | 'terminal:unsubscribe' | 'terminal:input' | 'terminal:resize' | 'terminal:desk' | 'terminal:ack';
type Handlers = { [E in TerminalEvent]: (payload: z.output<(typeof WebEventSchemas)[E]>) => Promise<Ack<WebAcks[E]>> };

export function bindWebTerminal(socket: HubSocket, options: { session: (sessionId: string) => Promise<Session | null>; viewers: TerminalViewers }) {
  const { session, viewers } = options;
  const liveTerminal = async (sessionId: string): Promise<AckError | null> => {
    const current = await session(sessionId);
    if (!current) return ackError('not_found', NO_SESSION);
    if (isFinalStatus(current.status)) return ackError('gone', 'session has ended');
    if (!socket.data.terminals.has(sessionId)) return ackError('conflict', 'subscribe to the terminal first');
    return null;
  };
  const refused = (result: 'read-only' | 'not-joined') =>
    result === 'read-only' ? ackError('forbidden', 'this viewer is read-only') : ackError('conflict', 'subscribe to the terminal first');

  /** Sessions this socket is the desk terminal of: leaving detaches the desk. */
  const deskOf = new Set<string>();
  const deskDetached = async (sessionId: string) => {
    if (!deskOf.delete(sessionId)) return;
    await viewers.desk(socket, sessionId, { attached: false });
  };

  const handlers: Handlers = {
    'terminal:subscribe': async ({ sessionId, since }) => {
      const current = await session(sessionId);
      if (!current) return ackError('not_found', NO_SESSION);
      socket.data.terminals.add(sessionId);
      // Output may reach the socket before this ack: the client places bytes by their offset.
      const ack = await viewers.subscribe(socket, current, since);
      if (!ack.ok) socket.data.terminals.delete(sessionId);
      return ack;
    },
    'terminal:unsubscribe': async ({ sessionId }) => {
      if (!(await session(sessionId))) return ackError('not_found', NO_SESSION);
      await deskDetached(sessionId);
      viewers.unsubscribe(socket, sessionId);
      socket.data.terminals.delete(sessionId);
      return { ok: true };
    },
    'terminal:input': async ({ sessionId, data }) => {
      echoMark('hub_in');
      // Keys are the hot path (each one waits for its echo): a viewer of a live room on this hub
      // was checked when it subscribed, so only other cases ask the store (a round trip on PostgreSQL).
      const refusal = socket.data.terminals.has(sessionId) && viewers.liveHere(socket, sessionId) ? null : await liveTerminal(sessionId);
      echoMark('hub_checked');
      if (refusal) return refusal;
      const result = await viewers.input(socket, sessionId, data);
      if (typeof result === 'object') return result;
      return result === 'written' || result === 'dropped' ? { ok: true } : refused(result);
    },
    'terminal:resize': async ({ sessionId, cols, rows, fit }) => {
      const refusal = await liveTerminal(sessionId);
      if (refusal) return refusal;
      const result = await viewers.resize(socket, sessionId, { cols, rows }, fit);
      if (typeof result === 'object') return result;
      return result === 'read-only' || result === 'not-joined' ? refused(result) : { ok: true };
    },
    'terminal:desk': async ({ sessionId, attached, cols, rows }) => {
      const refusal = await liveTerminal(sessionId);
      if (refusal) return refusal;
      if (!attached) {
        await deskDetached(sessionId);
        return { ok: true };
      }
      // The runner resizes the PTY and reports it with desk: true; the room's size owner follows.
      if (!(await viewers.desk(socket, sessionId, { attached: true, ...(cols && rows ? { cols, rows } : {}) }))) return ackError('conflict', 'subscribe to the terminal first');
      deskOf.add(sessionId);
      return { ok: true };
    },
    'terminal:ack': async ({ sessionId, offset }) => {
      // Subscribing checked the namespace; acks are frequent, so they skip the lookup.
      if (!socket.data.terminals.has(sessionId) && !(await session(sessionId))) return ackError('not_found', NO_SESSION);
      viewers.ack(socket, sessionId, offset);
      return { ok: true };
    },
  };

  return {
    handlers,
    gone(): void {
      for (const sessionId of [...deskOf]) void deskDetached(sessionId);
      viewers.viewerGone(socket);
    },
  };
}
