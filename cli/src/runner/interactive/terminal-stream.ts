// terminal-stream.ts: the runner's half of the terminal mirror. PTY bytes (each with its absolute
// offset) go to the hub only while the hub says someone watches; snapshots of the screen model are
// taken at an exact parsed offset; the PTY's size and the desk's presence are reported.
//
//   PTY ──data(offset)──► batch (terminal-output.ts: one event-loop turn, ≤ FLUSH_MAX_BYTES) ──terminal:output──► hub
//   screen model ──snapshot() at P (its own thread)──► terminal:snapshot {offset: P}──┘ (before any byte ≥ P)
//   hub ──terminal:viewers / snapshot-request──► here
//
// Invariants: bytes leave in offset order, and a snapshot at P is sent after every byte < P and
// before any byte ≥ P. The PTY never waits for the hub: past MAX_IN_FLIGHT_BYTES unacked, bytes are
// dropped and the hub gets a fresh snapshot once it catches up, so memory here stays bounded.
// Terminal bytes are never written to the on-disk outbox: after a reconnect the hub asks again.
// This file owns the snapshots and when they are taken; terminal-output.ts paces the bytes.
import type { ScreenModel } from '../../screen/screen.ts';
import { createTerminalOutput, type TerminalStreamLink } from './terminal-output.ts';

export { FLUSH_MAX_BYTES, MAX_IN_FLIGHT_BYTES, type TerminalStreamLink } from './terminal-output.ts';
/** Bytes held while a snapshot waits for the screen model to catch up; past this the held bytes
 *  are dropped (the snapshot after them covers them). */
export const MAX_HELD_BYTES = 8 * 1024 * 1024;
/** A snapshot must fit the hub's 1 MiB event cap with room to spare; history is halved until it does. */
export const MAX_SNAPSHOT_CHARS = 900 * 1024;
/** History lines sent above the screen in a snapshot (the screen model keeps 1000). */
export const SNAPSHOT_SCROLLBACK_LINES = 1000;

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
  let snapshotting = false;
  let snapshotWanted = false;
  /** Held bytes were dropped during this snapshot: what is pending no longer follows it. */
  let heldDropped = false;
  /** Called when the next snapshot has been acked (or could not be sent). */
  let snapshotWaiters: Array<() => void> = [];
  let stopped = false;
  const output = createTerminalOutput({ sessionId, link, holding: () => snapshotting, viewers: () => viewers, resync: () => takeSnapshot() });

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
    output.flush();
    snapshotting = true;
    const offset = options.ptyOffset();
    // Bytes that arrive from now on start at `offset`; they are held until the snapshot is out.
    output.holdFrom(offset);
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
      output.resynced(sent);
      if (snapshotWanted || !exact) {
        snapshotWanted = false;
        if (heldDropped) output.clear(); // they start after a hole; the next snapshot covers them
        heldDropped = false;
        takeSnapshot();
      } else if (viewers > 0) output.flush();
      else output.clear();
    });
  }

  return {
    /** Every PTY chunk, in order, with the offset of its first byte (the array is not modified). */
    data(chunk: { data: Uint8Array; offset: number }) {
      if (stopped || (viewers === 0 && !snapshotting)) return;
      output.push(chunk);
      if (snapshotting) {
        if (output.pendingBytes > MAX_HELD_BYTES) {
          // The screen model is far behind; the next snapshot will cover what we drop here.
          output.clear();
          snapshotWanted = true;
          heldDropped = true;
        }
        return;
      }
      output.sendSoon();
    },
    /** The hub's viewer count; with none, nothing is streamed. */
    viewers(count: number) {
      const was = viewers;
      viewers = count;
      if (count === 0) output.clear();
      // Bytes start with the next chunk; the hub asks for the snapshot that precedes them.
      if (was === 0 && count > 0) output.viewersArrived();
    },
    snapshotRequested() {
      takeSnapshot();
    },
    /** The link (re)connected and registered: old acks are void, and the hub hears the size. */
    connected() {
      output.reconnected();
      this.sizeChanged({ cols: screen.cols(), rows: screen.rowsCount() });
    },
    /** The PTY was resized: later bytes are drawn at the new size. */
    sizeChanged(size: { cols: number; rows: number }) {
      output.flush();
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
      return output.inFlightBytes;
    },
    get pendingBytes() {
      return output.pendingBytes;
    },
    stop() {
      stopped = true;
      output.clear();
    },
  };
}
