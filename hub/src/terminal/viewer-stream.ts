// viewer-stream.ts: how one terminal room's bytes reach its viewers: a contiguous stream per viewer
// from a snapshot or its `since`, paused past its high water and caught up from the byte log, or
// restarted from a snapshot when its bytes are gone. room.ts owns the room's bookkeeping (who
// joined, sizes, input, end) and shares its state with this stream.
import type { TerminalSizeNotice, TerminalSnapshot } from '@tether/shared';
import type { ByteLog } from './byte-log.ts';
import type { SizeOwnership } from './size-owner.ts';

export type ViewerSink = {
  bytes(offset: number, data: Uint8Array): void;
  snapshot(snapshot: TerminalSnapshot): void;
  /** The PTY size from byte `offset` on (optional: pure-logic tests leave it out). */
  size?(notice: Omit<TerminalSizeNotice, 'sessionId'>): void;
};

export type Viewer = {
  id: string;
  sink: ViewerSink;
  canWrite: boolean;
  /** A desk terminal (`tether attach`): it owns the size through the runner's desk report, so its
   *  query replies pass (it is the owner) and its input never "takes control" as a viewer. */
  desk: boolean;
  /** Offset of the next byte this viewer will be sent; null until it has a starting point. */
  sent: number | null;
  acked: number;
  paused: boolean;
  /** Unacked bytes before it is paused (see the room's join `hops`). */
  highWater: number;
};

/** One room's state, read and written by the room and its stream alike. */
export type RoomState = {
  log: ByteLog;
  size: SizeOwnership;
  viewers: Map<string, Viewer>;
  lastSnapshot: TerminalSnapshot | null;
  /** The PTY's actual size as the runner last reported it, and the first byte drawn at it. */
  ptySize: { offset: number; cols: number; rows: number } | null;
  ended: boolean;
  /** True once the log holds every byte since its start (the runner is streaming to us). */
  streaming: boolean;
};

export type ViewerStream = ReturnType<typeof createViewerStream>;

export function createViewerStream(options: {
  state: RoomState;
  requestSnapshot: () => void;
  /** Sends one chunk to many viewers at once (the socket layer encodes it once for all of them). */
  fanout?: (viewerIds: string[], offset: number, data: Uint8Array) => void;
}) {
  const { state } = options;

  function ownerFor(viewerId: string): TerminalSizeNotice['owner'] {
    const owner = state.size.owner();
    switch (owner.kind) {
      case 'desk':
        return 'desk';
      case 'viewer':
        return owner.viewerId === viewerId ? 'you' : 'other';
      case 'none':
        return 'none';
      default: {
        const never: never = owner;
        return never;
      }
    }
  }

  function tellSize(viewer: Viewer) {
    if (state.ptySize) viewer.sink.size?.({ ...state.ptySize, owner: ownerFor(viewer.id) });
  }

  function send(viewer: Viewer & { sent: number }, bytes: Uint8Array) {
    viewer.sink.bytes(viewer.sent, bytes);
    viewer.sent += bytes.length;
    if (viewer.sent - viewer.acked > viewer.highWater) viewer.paused = true;
  }

  function sendFrom(viewer: Viewer, chunk?: { offset: number; data: Uint8Array }) {
    if (viewer.sent === null || viewer.paused) return;
    // Fast path: a viewer within the new chunk gets the rest of it without a copy out of the log.
    // Also the only path when the chunk outgrew the log: its first bytes are already evicted, yet
    // a viewer that was exactly at it is owed them (a "gone" there would resync viewers in step).
    if (chunk !== undefined && viewer.sent >= chunk.offset && viewer.sent < chunk.offset + chunk.data.length) {
      send(viewer as Viewer & { sent: number }, chunk.data.subarray(viewer.sent - chunk.offset));
      return;
    }
    // Catching up from the log: its chunks as they are stored (views, not a copy of everything
    // since `sent`), until the viewer is at the end or past its high water again. Resuming 100
    // viewers with a copy each of up to the whole log was most of the hub's garbage in fan-out.
    while (!viewer.paused) {
      const piece = state.log.piece(viewer.sent);
      if (piece === 'gone') return needSnapshot(viewer);
      if (piece.length === 0) return;
      send(viewer as Viewer & { sent: number }, piece);
    }
  }

  function needSnapshot(viewer: Viewer) {
    viewer.sent = null;
    if (state.ended) {
      if (!state.lastSnapshot) return;
      // No runner to ask: the last screen it is. Its bytes must read as held from there on, or
      // replaying after it would come back here for ever.
      if (!state.log.has(state.lastSnapshot.offset)) state.log.reset(state.lastSnapshot.offset);
      startFromSnapshot(viewer, state.lastSnapshot);
      return;
    }
    options.requestSnapshot();
  }

  function startFromSnapshot(viewer: Viewer, snap: TerminalSnapshot) {
    viewer.sink.snapshot(snap);
    // Also when the snapshot already has the size: the notice says who owns it.
    tellSize(viewer);
    viewer.sent = snap.offset;
    viewer.acked = snap.offset;
    viewer.paused = false;
    sendFrom(viewer);
  }

  /** A new chunk of PTY bytes, already in the log, to every viewer streaming. */
  function deliver(chunk: { offset: number; data: Uint8Array }) {
    const { offset, data } = chunk;
    if (!options.fanout || state.viewers.size <= 1) {
      for (const viewer of state.viewers.values()) sendFrom(viewer, chunk);
      return;
    }
    // Viewers that are exactly at this chunk (the usual case) get it in one shared send.
    const inStep: Viewer[] = [];
    for (const viewer of state.viewers.values()) {
      if (viewer.sent === offset && !viewer.paused) inStep.push(viewer);
      else sendFrom(viewer, chunk);
    }
    // One viewer in step: its own socket is cheaper than a room broadcast.
    if (inStep.length === 1) return sendFrom(inStep[0]!, chunk);
    if (inStep.length === 0) return;
    for (const viewer of inStep) {
      viewer.sent = offset + data.length;
      if (viewer.sent - viewer.acked > viewer.highWater) viewer.paused = true;
    }
    options.fanout(
      inStep.map((v) => v.id),
      offset,
      data,
    );
  }

  return { tellSize, sendFrom, needSnapshot, startFromSnapshot, deliver };
}
