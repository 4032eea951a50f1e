// registry.ts: the hub's terminal rooms, one per (namespace, session), created on first use.
// The key is built from the caller's authenticated namespace, so two namespaces never share a room
// even with the same session id. Ended rooms keep their final screen for late viewers; the oldest
// ended rooms without viewers are dropped past MAX_ENDED_ROOMS so memory stays bounded.
import type { Namespace } from '@tether/shared';
import { createTerminalRoom, type RunnerPort, type TerminalRoom } from './room.ts';

/** Ended terminals whose final screen is kept in memory. A final screen is ~10–200 KiB, so 200 of
 *  them stay well under 50 MiB; older ones fall back to the chat only. */
export const MAX_ENDED_ROOMS = 200;

export type TerminalRegistry = ReturnType<typeof createTerminalRegistry>;

export function createTerminalRegistry(options: {
  /** How a room reaches the runner of its session (the socket layer provides it). */
  runnerPort: (ns: Namespace, sessionId: string) => RunnerPort;
  /** One send of a chunk to many viewers (by viewer id) of a session. */
  fanout?: (ns: Namespace, sessionId: string) => (viewerIds: string[], offset: number, data: Uint8Array) => void;
  maxBytesPerTerminal?: number;
  maxEndedRooms?: number;
}) {
  const rooms = new Map<string, TerminalRoom>();
  const key = (ns: Namespace, sessionId: string) => `${ns}\u0000${sessionId}`;
  const maxEnded = options.maxEndedRooms ?? MAX_ENDED_ROOMS;

  function evictEnded() {
    const ended = [...rooms.entries()].filter(([, room]) => room.ended && room.viewerCount === 0);
    // Map iteration order is insertion order: the first ones are the oldest.
    for (const [k] of ended.slice(0, Math.max(0, ended.length - maxEnded))) rooms.delete(k);
  }

  return {
    /** The room of a session, created when missing. Callers check the namespace owns the session. */
    get(ns: Namespace, sessionId: string): TerminalRoom {
      const k = key(ns, sessionId);
      let room = rooms.get(k);
      if (!room) {
        room = createTerminalRoom({
          sessionId,
          runner: options.runnerPort(ns, sessionId),
          ...(options.fanout ? { fanout: options.fanout(ns, sessionId) } : {}),
          ...(options.maxBytesPerTerminal !== undefined ? { maxBytes: options.maxBytesPerTerminal } : {}),
        });
        rooms.set(k, room);
      }
      return room;
    },
    find(ns: Namespace, sessionId: string): TerminalRoom | null {
      return rooms.get(key(ns, sessionId)) ?? null;
    },
    /** The session ended: keep its final screen, and drop old ended rooms. */
    ended(ns: Namespace, sessionId: string): void {
      const k = key(ns, sessionId);
      const room = rooms.get(k);
      if (!room) return;
      room.end();
      // Move to the back so eviction drops the longest-ended first.
      rooms.delete(k);
      rooms.set(k, room);
      evictEnded();
    },
    /** A resumed session runs again: forget the ended terminal (viewers subscribe anew). */
    reopen(ns: Namespace, sessionId: string): void {
      rooms.delete(key(ns, sessionId));
    },
    get size() {
      return rooms.size;
    },
  };
}
