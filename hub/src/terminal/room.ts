// room.ts: one session's terminal on the hub: the bounded byte log, its viewers, who owns the size,
// and which input reaches the PTY. Pure logic: the socket layer gives it functions to send with.
//
//   runner ──output(offset, bytes)──► room ──bytes/snapshot──► viewer A, viewer B …
//   runner ◄─input / resize / viewers / snapshot request──┘
//
// Invariants: a viewer is sent a contiguous byte stream starting at a snapshot or at its `since`;
// a viewer more than HIGH_WATER bytes behind its acks is paused (never the PTY, never other viewers)
// and resumed from the log, or from a fresh snapshot when its bytes are gone.
import type { TerminalSize, TerminalSizeNotice, TerminalSnapshot } from '@tether/shared';
import { createByteLog, DEFAULT_TERMINAL_LOG_BYTES, type ByteLog } from './byte-log.ts';
import { createSizeOwnership, type SizeOwnership } from './size-owner.ts';
import { filterViewerInput } from './query-filter.ts';
import { TERMINAL_LOG_FLOOR_BYTES } from './log-budget.ts';

/** Unacked bytes a viewer may have in flight before it is paused. 256 KiB is a few hundred ms of a
 *  fast build log on a phone link; a viewer that falls further behind is cheaper to redraw. */
export const VIEWER_HIGH_WATER_BYTES = 1024 * 1024;

/** Bytes after its final screen an ended terminal keeps (see end()). */
export const ENDED_LOG_BYTES = TERMINAL_LOG_FLOOR_BYTES;

export type ViewerSink = {
  bytes(offset: number, data: Uint8Array): void;
  snapshot(snapshot: TerminalSnapshot): void;
  /** The PTY size from byte `offset` on (optional: pure-logic tests leave it out). */
  size?(notice: Omit<TerminalSizeNotice, 'sessionId'>): void;
};

export type RunnerPort = {
  /** `from.desk`: typed at a desk terminal attached through the hub (`tether attach`). */
  input(data: string, from?: { desk: boolean }): void;
  resize(size: TerminalSize): void;
  viewers(count: number): void;
  requestSnapshot(): void;
};

type Viewer = {
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
  /** Unacked bytes before it is paused (see join's `hops`). */
  highWater: number;
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
  const log: ByteLog = createByteLog({ maxBytes: options.maxBytes ?? DEFAULT_TERMINAL_LOG_BYTES });
  const highWater = options.highWater ?? VIEWER_HIGH_WATER_BYTES;
  const size: SizeOwnership = createSizeOwnership();
  const viewers = new Map<string, Viewer>();
  let lastSnapshot: TerminalSnapshot | null = null;
  /** The PTY's actual size as the runner last reported it, and the first byte drawn at it. */
  let ptySize: { offset: number; cols: number; rows: number } | null = null;
  let ended = false;
  /** True once the log holds every byte since its start (the runner is streaming to us). */
  let streaming = false;

  function applyResize(changed: boolean) {
    const s = size.size();
    if (changed && s && !ended) options.runner.resize(s);
  }

  function ownerFor(viewerId: string): TerminalSizeNotice['owner'] {
    const owner = size.owner();
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
    if (ptySize) viewer.sink.size?.({ ...ptySize, owner: ownerFor(viewer.id) });
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
      const piece = log.piece(viewer.sent);
      if (piece === 'gone') return needSnapshot(viewer);
      if (piece.length === 0) return;
      send(viewer as Viewer & { sent: number }, piece);
    }
  }

  function needSnapshot(viewer: Viewer) {
    viewer.sent = null;
    if (ended) {
      if (!lastSnapshot) return;
      // No runner to ask: the last screen it is. Its bytes must read as held from there on, or
      // replaying after it would come back here for ever.
      if (!log.has(lastSnapshot.offset)) log.reset(lastSnapshot.offset);
      startFromSnapshot(viewer, lastSnapshot);
      return;
    }
    options.runner.requestSnapshot();
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
     *  hub link). Its acks take both hops back, so its window is that many times the high water:
     *  with one window a relayed viewer of a flood got ~0.57 of a local one's rate (multi-hub bench). */
    join(join: { viewerId: string; sink: ViewerSink; canWrite: boolean; since?: number; hops?: number }): 'bytes' | 'snapshot' {
      const viewer: Viewer = { id: join.viewerId, sink: join.sink, canWrite: join.canWrite, desk: false, sent: null, acked: 0, paused: false, highWater: highWater * Math.max(1, join.hops ?? 1) };
      const previous = viewers.get(join.viewerId);
      viewers.set(join.viewerId, viewer);
      if (!previous && !ended) options.runner.viewers(viewers.size);
      if (join.since !== undefined && streaming && log.has(join.since) && join.since <= log.end) {
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
      if (!ended) options.runner.viewers(viewers.size);
      if (viewers.size === 0) streaming = false;
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

    /** PTY bytes from the runner. */
    output(offset: number, data: Uint8Array) {
      // The PTY is gone: late bytes would only grow a log the budget no longer counts.
      if (ended) return;
      if (streaming && offset > log.end) {
        // A gap (the runner dropped bytes, or reconnected): everyone needs a snapshot.
        streaming = false;
        for (const viewer of viewers.values()) viewer.sent = null;
        if (viewers.size > 0 && !ended) options.runner.requestSnapshot();
      }
      log.append(offset, data);
      if (!streaming) return;
      // Not read back from the log: a chunk larger than the log is already partly evicted.
      const chunk = { offset, data };
      if (options.fanout && viewers.size > 1) {
        // Viewers that are exactly at this chunk (the usual case) get it in one shared send.
        const inStep: Viewer[] = [];
        for (const viewer of viewers.values()) {
          if (viewer.sent === offset && !viewer.paused) inStep.push(viewer);
          else sendFrom(viewer, chunk);
        }
        // One viewer in step: its own socket is cheaper than a room broadcast.
        if (inStep.length === 1) sendFrom(inStep[0]!, chunk);
        else if (inStep.length > 1) {
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
        return;
      }
      for (const viewer of viewers.values()) sendFrom(viewer, chunk);
    },

    /** A snapshot from the runner: the screen as of byte `offset`. Bytes from there on follow it. */
    snapshot(snap: TerminalSnapshot) {
      lastSnapshot = snap;
      // The snapshot carries the size it was drawn at. A size report at the same offset wins: the
      // snapshot may have been read before a resize that the runner reported first (the read is
      // asynchronous), and a report says what the PTY is from that byte on.
      if (ptySize === null || snap.offset > ptySize.offset) ptySize = { offset: snap.offset, cols: snap.cols, rows: snap.rows };
      // Bytes from the snapshot's offset on that the log already holds stay (the runner may have
      // sent some before the screen model caught up); otherwise the log restarts at the snapshot.
      if (snap.offset < log.start || snap.offset > log.end) log.reset(snap.offset);
      // Streaming means the runner sends every byte; it does so only while someone watches.
      streaming = viewers.size > 0;
      for (const viewer of viewers.values()) if (viewer.sent === null || !log.has(viewer.sent)) startFromSnapshot(viewer, snap);
    },

    /** The runner reports the PTY's size (after a resize, and on every connect). */
    ptyResized(report: { offset: number; cols: number; rows: number; desk: boolean }) {
      if (report.desk) size.deskAttached({ cols: report.cols, rows: report.rows });
      else applyResize(size.deskDetached());
      ptySize = { offset: report.offset, cols: report.cols, rows: report.rows };
      for (const viewer of viewers.values()) if (viewer.sent !== null) tellSize(viewer);
    },
    get ptySize() {
      return ptySize;
    },

    input(viewerId: string, data: string): 'written' | 'dropped' | 'read-only' | 'not-joined' {
      const viewer = viewers.get(viewerId);
      if (!viewer) return 'not-joined';
      if (!viewer.canWrite) return 'read-only';
      const decision = filterViewerInput({ data, fromOwner: viewer.desk || size.isOwner(viewerId) });
      if (decision.kind === 'drop') return 'dropped';
      if (decision.takesControl && !viewer.desk) {
        const current = size.size();
        if (current) applyResize(size.takeControl(viewerId, current));
      }
      options.runner.input(decision.data, viewer.desk ? { desk: true } : undefined);
      return 'written';
    },

    /** A viewer's own window size. `fit` = the user pressed "fit to my screen" (takes control). */
    resize(viewerId: string, s: TerminalSize, fit: boolean): 'ok' | 'read-only' | 'not-joined' {
      const viewer = viewers.get(viewerId);
      if (!viewer) return 'not-joined';
      if (!viewer.canWrite) return 'read-only';
      const before = size.owner();
      applyResize(fit ? size.takeControl(viewerId, s) : size.viewerResized(viewerId, s));
      if (JSON.stringify(before) !== JSON.stringify(size.owner())) for (const v of viewers.values()) if (v.sent !== null) tellSize(v);
      return 'ok';
    },

    /** Marks a joined viewer as the desk terminal (or not); false when it has not joined. */
    deskViewer(viewerId: string, desk: boolean): boolean {
      const viewer = viewers.get(viewerId);
      if (!viewer) return false;
      viewer.desk = desk;
      return true;
    },

    desk(state: { attached: boolean; size?: TerminalSize }) {
      if (!state.attached) applyResize(size.deskDetached());
      else if (state.size) size.deskAttached(state.size);
    },

    /** The PTY is gone; keep the final screen for late viewers, and of the log only the bytes
     *  after it: usually none (the runner reads its final screen at the PTY's last byte), more when
     *  the runner died and the last screen is an older one. Ended rooms are left out of the
     *  hub-wide log budget, so past ENDED_LOG_BYTES those bytes go too and the screen is that older
     *  one (as the store's saved final screen is anyway): bytes after a screen are useless without
     *  all of those before them. */
    end(finalSnapshot?: TerminalSnapshot) {
      if (finalSnapshot) lastSnapshot = finalSnapshot;
      ended = true;
      const from = lastSnapshot?.offset ?? log.end;
      const after = log.since(from);
      log.reset(from);
      if (after !== 'gone' && after.length > 0 && after.length <= ENDED_LOG_BYTES) log.append(from, after);
    },
    get ended() {
      return ended;
    },
    hasViewer(viewerId: string): boolean {
      return viewers.has(viewerId);
    },
    get lastSnapshot() {
      return lastSnapshot;
    },
  };
}
