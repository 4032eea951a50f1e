// terminal-stream.ts: places the hub's terminal facts (snapshots and byte chunks, each with an
// absolute offset) into one ordered stream of writes for the xterm, whatever order they arrive in.
//
//   subscribe {since?} ─► snapshot(offset) | bytes(offset, data) … ─► stream ─► write(…) / reset(…)
//                                                          gap? ─► resync(since = next expected)
//
// Invariant: every byte is written once and in order. Bytes that arrive before there is a starting
// point (output may beat the subscribe ack and the snapshot) wait; bytes already written are skipped;
// a hole (bytes after the next expected one) asks for a resync from the last byte written.

import type { TerminalSnapshotMarks } from '@tether/shared';

export type TerminalSink = {
  /** Clear the screen and draw a serialized snapshot at the given size (`marks`: tool-call moments
   *  the runner located in it). */
  reset(snapshot: { offset: number; cols: number; rows: number; data: string; marks?: TerminalSnapshotMarks }): void;
  /** `end`: the offset just past these bytes. */
  write(data: Uint8Array, end: number): void;
  /** Bytes are missing between `since` and what arrived: subscribe again from `since`. */
  resync(since: number): void;
};

/** Chunks held while waiting for a starting point. A stream that never gets one is broken, and an
 *  unbounded queue would turn that into a memory leak on a phone. */
const MAX_WAITING_CHUNKS = 512;

export type TerminalStream = {
  /** Starting over (first subscribe, or a rejoin): `since` when resuming, else wait for a snapshot. */
  begin(since: number | null): void;
  snapshot(snapshot: { offset: number; cols: number; rows: number; data: string; marks?: TerminalSnapshotMarks }): void;
  bytes(offset: number, data: Uint8Array): void;
  /** Offset of the next byte to be written (null before a starting point). */
  next(): number | null;
};

export function createTerminalStream(sink: TerminalSink): TerminalStream {
  let next: number | null = null;
  let waiting: Array<{ offset: number; data: Uint8Array }> = [];
  let resyncing = false;

  function place(offset: number, data: Uint8Array): void {
    if (next === null) {
      if (waiting.length < MAX_WAITING_CHUNKS) waiting.push({ offset, data });
      return;
    }
    const end = offset + data.byteLength;
    if (end <= next) return; // already written
    if (offset > next) {
      // A hole: never draw past missing bytes (the screen would be wrong from here on).
      if (!resyncing) {
        resyncing = true;
        sink.resync(next);
      }
      return;
    }
    sink.write(offset === next ? data : data.subarray(next - offset), end);
    next = end;
  }

  function drain(): void {
    const queued = waiting.sort((a, b) => a.offset - b.offset);
    waiting = [];
    for (const chunk of queued) place(chunk.offset, chunk.data);
  }

  return {
    begin(since) {
      next = since;
      resyncing = false;
      if (since !== null) drain();
    },
    snapshot(snapshot) {
      sink.reset(snapshot);
      next = snapshot.offset;
      resyncing = false;
      drain();
    },
    bytes(offset, data) {
      place(offset, data);
    },
    next: () => next,
  };
}
