// terminal-output.ts: PTY bytes on their way to the hub (terminal:output), paced by its acks. A
// burst read in one event-loop turn leaves as one event (in FLUSH_MAX_BYTES pieces); bytes are held
// while a snapshot is being taken; past MAX_IN_FLIGHT_BYTES unacked, or while the link is down, bytes
// are dropped and a gap is marked, which only a snapshot closes (terminal-stream.ts takes it once
// the hub has caught up), so the PTY never waits for the hub and memory here stays bounded.
import type { Ack, CliAcks, CliEventName, CliPayload } from '@tether/shared';
import { concatBytes } from '../../pty/bytes.ts';
import { echoMark } from '../../pty/echo-trace.ts';

/** Largest terminal:output event. A burst read in one turn goes out in pieces this size: 256 KiB
 *  makes per-event costs (socket.io framing, ack, the hub's lookup and log append, one send per
 *  viewer) negligible at full speed, stays far below the hub's 1 MiB payload cap, and bounds what a
 *  paused viewer may overshoot its high-water mark by. A keystroke's echo is still one small event. */
export const FLUSH_MAX_BYTES = 256 * 1024;
/** Unacked bytes on the way to the hub before the stream drops bytes and resyncs with a snapshot.
 *  4 MiB is ~40 ms of a saturated local link and bounds the runner's socket buffer. */
export const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

export type TerminalStreamLink = {
  send<E extends CliEventName>(event: E, payload: CliPayload<E>, onAck?: (ack: Ack<CliAcks[E]>) => void): boolean;
};

export type TerminalOutput = ReturnType<typeof createTerminalOutput>;

export function createTerminalOutput(o: {
  sessionId: string;
  link: TerminalStreamLink;
  /** A snapshot is being taken: bytes wait for it. */
  holding: () => boolean;
  viewers: () => number;
  /** Bytes were dropped and the hub has room again: a snapshot closes the gap. */
  resync: () => void;
}) {
  const { sessionId, link } = o;
  /** Bytes not yet sent, starting at `pendingStart`. */
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let pendingStart = 0;
  let flushScheduled = false;
  let inFlight = 0;
  /** Bumped on every (re)connect: acks of an older connection no longer count. */
  let generation = 0;
  /** Bytes were dropped; the hub needs a snapshot before bytes make sense again. */
  let gap = false;

  const clear = () => {
    pending = [];
    pendingBytes = 0;
  };

  const emitBytes = (offset: number, data: Uint8Array) => {
    echoMark('run_emit');
    const gen = generation;
    const sent = link.send('terminal:output', { sessionId, offset, data }, () => {
      if (gen === generation) {
        inFlight -= data.length;
        if (gap && !o.holding() && inFlight <= MAX_IN_FLIGHT_BYTES / 2 && o.viewers() > 0) o.resync();
      }
    });
    if (sent) inFlight += data.length;
    else gap = true; // not connected: those bytes are lost; the reconnect brings a snapshot
  };

  /** Sends what is pending (unless a snapshot is holding it back). */
  const flush = () => {
    flushScheduled = false;
    if (o.holding() || pendingBytes === 0) return;
    if (gap) {
      // The hub is behind or away; these bytes will be covered by the next snapshot.
      clear();
      return;
    }
    if (inFlight + pendingBytes > MAX_IN_FLIGHT_BYTES) {
      clear();
      gap = true;
      // The resync normally starts from an ack; with so little in flight none may ever come (the
      // bytes held during a snapshot alone can pass the limit), so it starts now.
      if (inFlight <= MAX_IN_FLIGHT_BYTES / 2 && o.viewers() > 0) o.resync();
      return;
    }
    let offset = pendingStart;
    const data = pending.length === 1 ? pending[0]! : concatBytes(pending, pendingBytes);
    clear();
    for (let i = 0; i < data.length; i += FLUSH_MAX_BYTES) {
      const piece = data.subarray(i, Math.min(data.length, i + FLUSH_MAX_BYTES));
      emitBytes(offset, piece);
      offset += piece.length;
    }
  };

  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    // bun-pty delivers everything it can read in one synchronous burst of ≤ 4 KiB chunks; flushing
    // at the end of this turn coalesces the burst into one event and adds no timer latency to a
    // single keystroke's echo.
    setImmediate(flush);
  };

  return {
    flush,
    clear,
    /** Queues a PTY chunk (the array is not modified); the caller sends it with `sendSoon`. */
    push(chunk: { data: Uint8Array; offset: number }) {
      if (pendingBytes === 0) pendingStart = chunk.offset;
      pending.push(chunk.data);
      pendingBytes += chunk.data.length;
    },
    /** A full piece goes now; less waits for the end of this turn. */
    sendSoon() {
      if (pendingBytes >= FLUSH_MAX_BYTES) flush();
      else scheduleFlush();
    },
    /** A snapshot at `offset` is being taken: what arrives from now on starts there. */
    holdFrom(offset: number) {
      clear();
      pendingStart = offset;
    },
    /** A snapshot went out (bytes make sense again after it) or could not (they stay dropped). */
    resynced(sent: boolean) {
      gap = !sent;
    },
    /** Viewers arrived: the hub asks for the snapshot that precedes the next bytes, so none is owed. */
    viewersArrived() {
      gap = false;
    },
    /** The link (re)connected: acks of the old connection are void, and nothing is owed. */
    reconnected() {
      generation++;
      inFlight = 0;
      gap = false;
      clear();
    },
    get inFlightBytes() {
      return inFlight;
    },
    get pendingBytes() {
      return pendingBytes;
    },
  };
}
