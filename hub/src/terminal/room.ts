// room.ts: one session's terminal on the hub: the bounded byte log, its viewers, who owns the size,
// and which input reaches the PTY. Pure logic: the socket layer gives it functions to send with.
//
//   runner ──output(offset, bytes)──► room ──bytes/snapshot──► viewer A, viewer B …
//   runner ◄─input / resize / viewers / snapshot request──┘
//
// Invariants: a viewer is sent a contiguous byte stream starting at a snapshot or at its `since`;
// a viewer more than HIGH_WATER bytes behind its acks is paused (never the PTY, never other viewers)
// and resumed from the log, or from a fresh snapshot when its bytes are gone.
import type { TerminalSize, TerminalSnapshot } from '@tether/shared';
import { createByteLog, DEFAULT_TERMINAL_LOG_BYTES } from './byte-log.ts';
import { createSizeOwnership } from './size-owner.ts';
import { createViewerStream, type RoomState, type Viewer, type ViewerSink } from './viewer-stream.ts';
import { createViewerControl } from './viewer-control.ts';
import { TERMINAL_LOG_FLOOR_BYTES } from './log-budget.ts';

export type { ViewerSink } from './viewer-stream.ts';

/** Unacked bytes a viewer may have in flight before it is paused. 256 KiB is a few hundred ms of a
 *  fast build log on a phone link; a viewer that falls further behind is cheaper to redraw. */
export const VIEWER_HIGH_WATER_BYTES = 1024 * 1024;

/** Bytes after its final screen an ended terminal keeps (see end()). */
export const ENDED_LOG_BYTES = TERMINAL_LOG_FLOOR_BYTES;

export type RunnerPort = {
  /** `from.desk`: typed at a desk terminal attached through the hub (`tether attach`). */
  input(data: string, from?: { desk: boolean }): void;
  resize(size: TerminalSize): void;
  viewers(count: number): void;
  requestSnapshot(): void;
};

export type TerminalRoom = ReturnType<typeof createTerminalRoom>;

export function createTerminalRoom(options: {
  sessionId: string;
  runner: RunnerPort;
  maxBytes?: number;
  highWater?: number;
  /** Sends one chunk to many viewers at once (the socket layer encodes it once for all of them).
   *  Without it every viewer's sink is called. */
  fanout?: (viewerIds: string[], offset: number, data: Uint8Array) => void;
}) {
  const highWater = options.highWater ?? VIEWER_HIGH_WATER_BYTES;
  const state: RoomState = {
    log: createByteLog({ maxBytes: options.maxBytes ?? DEFAULT_TERMINAL_LOG_BYTES }),
    size: createSizeOwnership(),
    viewers: new Map<string, Viewer>(),
    lastSnapshot: null,
    ptySize: null,
    ended: false,
    streaming: false,
  };
  const { log, size, viewers } = state;
  const stream = createViewerStream({ state, requestSnapshot: () => options.runner.requestSnapshot(), ...(options.fanout ? { fanout: options.fanout } : {}) });
  const { tellSize, sendFrom, needSnapshot } = stream;

  const control = createViewerControl({ state, stream, runner: options.runner });
  const { applyResize } = control;
  const fromRunner = runnerFeed({ state, stream, runner: options.runner });

  return {
    sessionId: options.sessionId,
    get viewerCount() {
      return viewers.size;
    },
    get viewerIds(): string[] {
      return [...viewers.keys()];
    },
    get log() {
      return log;
    },
    size,

    /** `hops`: sockets between this hub and the viewer, 2 for a viewer on another hub (through the
     *  terminal link). Its acks take both hops back, so its window is that many times the high water:
     *  with one window a linked viewer of a flood got ~0.57 of a local one's rate (multi-hub bench). */
    join(join: { viewerId: string; sink: ViewerSink; canWrite: boolean; since?: number; hops?: number }): 'bytes' | 'snapshot' {
      const viewer: Viewer = { id: join.viewerId, sink: join.sink, canWrite: join.canWrite, desk: false, sent: null, acked: 0, paused: false, highWater: highWater * Math.max(1, join.hops ?? 1) };
      const previous = viewers.get(join.viewerId);
      viewers.set(join.viewerId, viewer);
      if (!previous && !state.ended) options.runner.viewers(viewers.size);
      if (join.since !== undefined && state.streaming && log.has(join.since) && join.since <= log.end) {
        viewer.sent = join.since;
        viewer.acked = join.since;
        tellSize(viewer);
        sendFrom(viewer);
        return 'bytes';
      }
      needSnapshot(viewer);
      return 'snapshot';
    },

    leave(viewerId: string) {
      if (!viewers.delete(viewerId)) return;
      applyResize(size.viewerLeft(viewerId));
      if (!state.ended) options.runner.viewers(viewers.size);
      if (viewers.size === 0) state.streaming = false;
    },

    ack(viewerId: string, offset: number) {
      const viewer = viewers.get(viewerId);
      if (!viewer || viewer.sent === null) return;
      viewer.acked = Math.min(Math.max(viewer.acked, offset), viewer.sent);
      if (viewer.paused && viewer.sent - viewer.acked <= viewer.highWater / 2) {
        viewer.paused = false;
        sendFrom(viewer);
      }
    },

    ...fromRunner,

    ptyResized: control.ptyResized,
    input: control.input,
    resize: control.resize,
    deskViewer: control.deskViewer,
    desk: control.desk,
    get ptySize() {
      return state.ptySize;
    },

    get ended() {
      return state.ended;
    },
    /** Ask the runner for a fresh screen (a search of a terminal nobody streams). */
    requestSnapshot(): void {
      if (!state.ended) options.runner.requestSnapshot();
    },
    hasViewer(viewerId: string): boolean {
      return viewers.has(viewerId);
    },
    get lastSnapshot() {
      return state.lastSnapshot;
    },
  };
}

/** What the runner sends a room: PTY bytes, a screen snapshot, and the end of its PTY. */
function runnerFeed(o: { state: RoomState; stream: ReturnType<typeof createViewerStream>; runner: RunnerPort }) {
  const { state } = o;
  const { log, viewers } = state;
  return {
    /** PTY bytes from the runner. */
    output(offset: number, data: Uint8Array) {
      // The PTY is gone: late bytes would only grow a log the budget no longer counts.
      if (state.ended) return;
      if (state.streaming && offset > log.end) {
        // A gap (the runner dropped bytes, or reconnected): everyone needs a snapshot.
        state.streaming = false;
        for (const viewer of viewers.values()) viewer.sent = null;
        if (viewers.size > 0 && !state.ended) o.runner.requestSnapshot();
      }
      log.append(offset, data);
      if (!state.streaming) return;
      // Not read back from the log: a chunk larger than the log is already partly evicted.
      o.stream.deliver({ offset, data });
    },

    /** A snapshot from the runner: the screen as of byte `offset`. Bytes from there on follow it. */
    snapshot(snap: TerminalSnapshot) {
      state.lastSnapshot = snap;
      // The snapshot carries the size it was drawn at. A size report at the same offset wins: the
      // snapshot may have been read before a resize that the runner reported first (the read is
      // asynchronous), and a report says what the PTY is from that byte on.
      if (state.ptySize === null || snap.offset > state.ptySize.offset) state.ptySize = { offset: snap.offset, cols: snap.cols, rows: snap.rows };
      // Bytes from the snapshot's offset on that the log already holds stay (the runner may have
      // sent some before the screen model caught up); otherwise the log restarts at the snapshot.
      if (snap.offset < log.start || snap.offset > log.end) log.reset(snap.offset);
      // Streaming means the runner sends every byte; it does so only while someone watches.
      state.streaming = viewers.size > 0;
      for (const viewer of viewers.values()) if (viewer.sent === null || !log.has(viewer.sent)) o.stream.startFromSnapshot(viewer, snap);
    },

    /** The PTY is gone; keep the final screen for late viewers, and of the log only the bytes
     *  after it: usually none (the runner reads its final screen at the PTY's last byte), more when
     *  the runner died and the last screen is an older one. Ended rooms are left out of the
     *  hub-wide log budget, so past ENDED_LOG_BYTES those bytes go too and the screen is that older
     *  one (as the store's saved final screen is anyway): bytes after a screen are useless without
     *  all of those before them. */
    end(finalSnapshot?: TerminalSnapshot) {
      if (finalSnapshot) state.lastSnapshot = finalSnapshot;
      state.ended = true;
      const from = state.lastSnapshot?.offset ?? log.end;
      const after = log.since(from);
      log.reset(from);
      if (after !== 'gone' && after.length > 0 && after.length <= ENDED_LOG_BYTES) log.append(from, after);
    },
  };
}
