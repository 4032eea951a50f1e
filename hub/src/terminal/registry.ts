// registry.ts: the hub's terminal rooms, one per (namespace, session), created on first use.
// The key is built from the caller's authenticated namespace, so two namespaces never share a room
// even with the same session id. Ended rooms keep their final screen for late viewers; the oldest
// ended rooms without viewers are dropped past MAX_ENDED_ROOMS so memory stays bounded. Final
// screens are also saved (`finalScreens`, the store), so an ended session whose room was dropped,
// or that ended before a hub restart, still replays its last screen.
//
// Memory: the live (not ended) rooms share one budget for their byte logs. Each one's cap is
// terminalLogCap(budget ÷ live), recomputed when a room is made or ends (O(rooms) then, never per
// append); ended rooms keep only their final screen, so they are not counted.
import type { Namespace, TerminalSnapshot } from '@tether/shared';
import { createTerminalRoom, type RunnerPort, type TerminalRoom } from './room.ts';
import { DEFAULT_TERMINAL_LOG_BYTES } from './byte-log.ts';
import { DEFAULT_TERMINAL_MEMORY_BYTES, TERMINAL_LOG_FLOOR_BYTES, terminalLogCap } from './log-budget.ts';

/** Ended terminals whose final screen is kept in memory. A final screen is ~10–200 KiB, so 200 of
 *  them stay well under 50 MiB; older ones fall back to the chat only. */
export const MAX_ENDED_ROOMS = 200;

export type TerminalRegistry = ReturnType<typeof createTerminalRegistry>;

/** Where final screens outlive the rooms (the hub's store). */
export type FinalScreenPort = {
  save(ns: Namespace, sessionId: string, snapshot: TerminalSnapshot): Promise<void>;
  load(ns: Namespace, sessionId: string): Promise<TerminalSnapshot | null>;
  forget(ns: Namespace, sessionId: string): Promise<void>;
};

export function createTerminalRegistry(options: {
  /** How a room reaches the runner of its session (the socket layer provides it). */
  runnerPort: (ns: Namespace, sessionId: string) => RunnerPort;
  /** One send of a chunk to many viewers (by viewer id) of a session. */
  fanout?: (ns: Namespace, sessionId: string) => (viewerIds: string[], offset: number, data: Uint8Array) => void;
  /** The most one terminal's log may hold (default DEFAULT_TERMINAL_LOG_BYTES, 4 MiB). */
  maxBytesPerTerminal?: number;
  /** All live terminals' logs together (default DEFAULT_TERMINAL_MEMORY_BYTES, 256 MiB). */
  terminalMemoryBytes?: number;
  /** The least a live terminal keeps however many there are (default 128 KiB). */
  minBytesPerTerminal?: number;
  maxEndedRooms?: number;
  finalScreens?: FinalScreenPort;
}) {
  const rooms = new Map<string, TerminalRoom>();
  const key = (ns: Namespace, sessionId: string) => `${ns}\u0000${sessionId}`;
  const maxEnded = options.maxEndedRooms ?? MAX_ENDED_ROOMS;
  const budget = options.terminalMemoryBytes ?? DEFAULT_TERMINAL_MEMORY_BYTES;
  if (!(budget > 0) || !Number.isFinite(budget)) throw new Error(`terminal memory budget must be a positive number of bytes, got ${budget}`);
  const limits = { budget, floor: options.minBytesPerTerminal ?? TERMINAL_LOG_FLOOR_BYTES, max: options.maxBytesPerTerminal ?? DEFAULT_TERMINAL_LOG_BYTES };
  /** The cap every live room's log has now. */
  let cap = terminalLogCap({ ...limits, live: 0 });

  /** After a room was made or ended. Lowered caps trim at once rather than at each log's next
   *  append: the terminals that print nothing more are most of a big hub's (sessions waiting on
   *  their user), and lazily they would keep their old share for ever, so the total would not
   *  be bounded at all. Trimming is one shift or subarray per dropped chunk, each byte once. */
  function rebalance() {
    let live = 0;
    for (const room of rooms.values()) if (!room.ended) live++;
    const next = terminalLogCap({ ...limits, live });
    if (next === cap) return;
    cap = next;
    for (const room of rooms.values()) if (!room.ended) room.log.setMaxBytes(cap);
  }

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
          maxBytes: cap,
        });
        rooms.set(k, room);
        rebalance();
      }
      return room;
    },
    find(ns: Namespace, sessionId: string): TerminalRoom | null {
      return rooms.get(key(ns, sessionId)) ?? null;
    },
    /** The session ended: keep its final screen, and drop old ended rooms. */
    async ended(ns: Namespace, sessionId: string): Promise<void> {
      const k = key(ns, sessionId);
      const room = rooms.get(k);
      if (!room) return;
      if (room.ended) return;
      // A room made after the end (hub restart, or dropped by eviction) gets the saved screen; a room
      // that saw the end saves the screen the runner sent just before it.
      const saved = room.lastSnapshot ? null : ((await options.finalScreens?.load(ns, sessionId)) ?? null);
      // Another end of the same room may have finished while the screen was loading.
      if (room.ended || rooms.get(k) !== room) return;
      room.end(saved ?? undefined);
      rebalance();
      if (!saved && room.lastSnapshot) await options.finalScreens?.save(ns, sessionId, room.lastSnapshot);
      // Move to the back so eviction drops the longest-ended first.
      rooms.delete(k);
      rooms.set(k, room);
      evictEnded();
    },
    /** A runner registered the session as running (a reconnect, or a resume): an ended terminal is
     *  forgotten (viewers subscribe anew), and so is a saved final screen (no longer the last one). */
    async running(ns: Namespace, sessionId: string): Promise<void> {
      const k = key(ns, sessionId);
      if (rooms.get(k)?.ended) rooms.delete(k);
      await options.finalScreens?.forget(ns, sessionId);
    },
    get size() {
      return rooms.size;
    },
    /** What the logs hold now (O(rooms): for /healthz, not for hot paths). */
    memory(): { liveTerminals: number; logBytes: number; capBytes: number; budgetBytes: number } {
      let liveTerminals = 0;
      let logBytes = 0;
      for (const room of rooms.values()) {
        if (!room.ended) liveTerminals++;
        logBytes += room.log.heldBytes;
      }
      return { liveTerminals, logBytes, capBytes: cap, budgetBytes: budget };
    },
  };
}
