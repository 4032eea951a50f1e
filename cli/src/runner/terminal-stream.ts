// terminal-stream.ts: the runner's half of the terminal mirror. PTY bytes (each with its absolute
// offset) go to the hub only while the hub says someone watches; snapshots of the screen model are
// taken at an exact parsed offset; the PTY's size and the desk's presence are reported.
//
//   PTY ──data(offset)──► batch (one event-loop turn, ≤ FLUSH_MAX_BYTES) ──terminal:output──► hub
//   screen model ──snapshot() at P (its own thread)──► terminal:snapshot {offset: P}──┘ (before any byte ≥ P)
//   hub ──terminal:viewers / snapshot-request──► here
//
// Invariants: bytes leave in offset order, and a snapshot at P is sent after every byte < P and
// before any byte ≥ P. The PTY never waits for the hub: past MAX_IN_FLIGHT_BYTES unacked, bytes are
// dropped and the hub gets a fresh snapshot once it catches up, so memory here stays bounded.
// Terminal bytes are never written to the on-disk outbox: after a reconnect the hub asks again.
import type { Ack, CliAcks, CliEventName, CliPayload } from '@tether/shared';
import { concatBytes } from '../pty/bytes.ts';
import type { ScreenModel } from '../screen/screen.ts';

/** Largest terminal:output event. A burst read in one turn goes out in pieces this size: 256 KiB
 *  makes per-event costs (socket.io framing, ack, the hub's lookup and log append, one send per
 *  viewer) negligible at full speed, stays far below the hub's 1 MiB payload cap, and bounds what a
 *  paused viewer may overshoot its high-water mark by. A keystroke's echo is still one small event. */
export const FLUSH_MAX_BYTES = 256 * 1024;
/** Unacked bytes on the way to the hub before the stream drops bytes and resyncs with a snapshot.
 *  4 MiB is ~40 ms of a saturated local link and bounds the runner's socket buffer. */
export const MAX_IN_FLIGHT_BYTES = 4 * 1024 * 1024;
/** Bytes held while a snapshot waits for the screen model to catch up; past this the held bytes
 *  are dropped (the snapshot after them covers them). */
export const MAX_HELD_BYTES = 8 * 1024 * 1024;
/** A snapshot must fit the hub's 1 MiB event cap with room to spare; history is halved until it does. */
export const MAX_SNAPSHOT_CHARS = 900 * 1024;
/** History lines sent above the screen in a snapshot (the screen model keeps 1000). */
export const SNAPSHOT_SCROLLBACK_LINES = 1000;

export type TerminalStreamLink = {
  send<E extends CliEventName>(event: E, payload: CliPayload<E>, onAck?: (ack: Ack<CliAcks[E]>) => void): boolean;
};

export type TerminalStreamScreen = Pick<ScreenModel, 'snapshot' | 'cols' | 'rowsCount'>;

export type TerminalStream = ReturnType<typeof createTerminalStream>;

export function createTerminalStream(options: {
  sessionId: string;
  /** This PTY's id (tool-call moments name it; snapshots say which run their marks belong to). */
  run: string;
  link: TerminalStreamLink;
  screen: TerminalStreamScreen;
  /** Bytes the PTY has produced so far (the offset of the next byte). */
  ptyOffset: () => number;
  /** Whether a local terminal is attached (it owns the size). */
  desk: () => boolean;
}) {
  const { sessionId, link, screen } = options;
  let viewers = 0;
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
  let snapshotting = false;
  let snapshotWanted = false;
  /** Held bytes were dropped during this snapshot: what is pending no longer follows it. */
  let heldDropped = false;
  /** Called when the next snapshot has been acked (or could not be sent). */
  let snapshotWaiters: Array<() => void> = [];
  let stopped = false;

  const clearPending = () => {
    pending = [];
    pendingBytes = 0;
  };

  const emitBytes = (offset: number, data: Uint8Array) => {
    const gen = generation;
    const sent = link.send('terminal:output', { sessionId, offset, data }, () => {
      if (gen === generation) {
        inFlight -= data.length;
        if (gap && !snapshotting && inFlight <= MAX_IN_FLIGHT_BYTES / 2 && viewers > 0) takeSnapshot();
      }
    });
    if (sent) inFlight += data.length;
    else gap = true; // not connected: those bytes are lost; the reconnect brings a snapshot
  };

  /** Sends what is pending (unless a snapshot is holding it back). */
  const flush = () => {
    flushScheduled = false;
    if (snapshotting || pendingBytes === 0) return;
    if (gap) {
      // The hub is behind or away; these bytes will be covered by the next snapshot.
      clearPending();
      return;
    }
    if (inFlight + pendingBytes > MAX_IN_FLIGHT_BYTES) {
      clearPending();
      gap = true;
      // The resync normally starts from an ack; with so little in flight none may ever come (the
      // bytes held during a snapshot alone can pass the limit), so it starts now.
      if (inFlight <= MAX_IN_FLIGHT_BYTES / 2 && viewers > 0) takeSnapshot();
      return;
    }
    let offset = pendingStart;
    const data = pending.length === 1 ? pending[0]! : concatBytes(pending, pendingBytes);
    clearPending();
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

  /** Snapshot at the current PTY offset P: bytes < P go out first, bytes ≥ P wait for it. */
  function takeSnapshot(onAck?: () => void) {
    if (stopped) return onAck?.();
    if (onAck) snapshotWaiters.push(onAck);
    if (snapshotting) {
      snapshotWanted = true;
      return;
    }
    const waiters = snapshotWaiters;
    snapshotWaiters = [];
    const acked = () => {
      for (const w of waiters) w();
    };
    flush();
    snapshotting = true;
    const offset = options.ptyOffset();
    // Bytes that arrive from now on start at `offset`; they are held until the snapshot is out.
    clearPending();
    pendingStart = offset;
    // The screen model answers at exactly the bytes written to it before this call, which are the
    // PTY's bytes < `offset` (the runner writes every chunk to the screen before it reaches here).
    void screen.snapshot({ scrollback: SNAPSHOT_SCROLLBACK_LINES, maxChars: MAX_SNAPSHOT_CHARS }).then((snapshot) => {
      snapshotting = false;
      if (stopped) return acked();
      const exact = snapshot.offset === offset;
      const sent = exact && link.send(
          'terminal:snapshot',
          { sessionId, offset, cols: snapshot.cols, rows: snapshot.rows, data: snapshot.data, marks: { run: options.run, ...snapshot.marks } },
          acked,
        );
      if (!sent) acked();
      gap = !sent;
      if (snapshotWanted || !exact) {
        snapshotWanted = false;
        if (heldDropped) clearPending(); // they start after a hole; the next snapshot covers them
        heldDropped = false;
        takeSnapshot();
      } else if (viewers > 0) flush();
      else clearPending();
    });
  }

  return {
    /** Every PTY chunk, in order, with the offset of its first byte (the array is not modified). */
    data(chunk: { data: Uint8Array; offset: number }) {
      if (stopped || (viewers === 0 && !snapshotting)) return;
      const bytes = chunk.data;
      if (pendingBytes === 0) pendingStart = chunk.offset;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (snapshotting) {
        if (pendingBytes > MAX_HELD_BYTES) {
          // The screen model is far behind; the next snapshot will cover what we drop here.
          clearPending();
          snapshotWanted = true;
          heldDropped = true;
        }
        return;
      }
      if (pendingBytes >= FLUSH_MAX_BYTES) flush();
      else scheduleFlush();
    },
    /** The hub's viewer count; with none, nothing is streamed. */
    viewers(count: number) {
      const was = viewers;
      viewers = count;
      if (count === 0) clearPending();
      // Bytes start with the next chunk; the hub asks for the snapshot that precedes them.
      if (was === 0 && count > 0) gap = false;
    },
    snapshotRequested() {
      takeSnapshot();
    },
    /** The link (re)connected and registered: old acks are void, and the hub hears the size. */
    connected() {
      generation++;
      inFlight = 0;
      gap = false;
      clearPending();
      this.sizeChanged({ cols: screen.cols(), rows: screen.rowsCount() });
    },
    /** The PTY was resized: later bytes are drawn at the new size. */
    sizeChanged(size: { cols: number; rows: number }) {
      flush();
      link.send('terminal:size', { sessionId, offset: options.ptyOffset(), cols: size.cols, rows: size.rows, desk: options.desk() });
    },
    /** Before session:end: the final screen, so late viewers still see how it ended. */
    final(timeoutMs: number): Promise<void> {
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        takeSnapshot(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    get inFlightBytes() {
      return inFlight;
    },
    get pendingBytes() {
      return pendingBytes;
    },
    stop() {
      stopped = true;
      clearPending();
    },
  };
}
