// viewer-control.ts: who sizes one room's PTY and which viewer input reaches it: the desk owns the
// size while attached, else the viewer that took control; a read-only viewer types nothing, and a
// terminal's query replies pass only from the owner (query-filter.ts). Shares the room's state.
import type { TerminalSize } from '@tether/shared';
import { filterViewerInput } from './query-filter.ts';
import type { RoomState, ViewerStream } from './viewer-stream.ts';

export function createViewerControl(options: { state: RoomState; stream: Pick<ViewerStream, 'tellSize'>; runner: { input(data: string, from?: { desk: boolean }): void; resize(size: TerminalSize): void } }) {
  const { state, runner } = options;
  const { size, viewers } = state;

  function applyResize(changed: boolean) {
    const s = size.size();
    if (changed && s && !state.ended) runner.resize(s);
  }

  function tellEveryone() {
    for (const viewer of viewers.values()) if (viewer.sent !== null) options.stream.tellSize(viewer);
  }

  return {
    applyResize,

    /** The runner reports the PTY's size (after a resize, and on every connect). */
    ptyResized(report: { offset: number; cols: number; rows: number; desk: boolean }) {
      if (report.desk) size.deskAttached({ cols: report.cols, rows: report.rows });
      else applyResize(size.deskDetached());
      state.ptySize = { offset: report.offset, cols: report.cols, rows: report.rows };
      tellEveryone();
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
      runner.input(decision.data, viewer.desk ? { desk: true } : undefined);
      return 'written';
    },

    /** A viewer's own window size. `fit` = the user pressed "fit to my screen" (takes control). */
    resize(viewerId: string, s: TerminalSize, fit: boolean): 'ok' | 'read-only' | 'not-joined' {
      const viewer = viewers.get(viewerId);
      if (!viewer) return 'not-joined';
      if (!viewer.canWrite) return 'read-only';
      const before = size.owner();
      applyResize(fit ? size.takeControl(viewerId, s) : size.viewerResized(viewerId, s));
      if (JSON.stringify(before) !== JSON.stringify(size.owner())) tellEveryone();
      return 'ok';
    },

    /** Marks a joined viewer as the desk terminal (or not); false when it has not joined. */
    deskViewer(viewerId: string, desk: boolean): boolean {
      const viewer = viewers.get(viewerId);
      if (!viewer) return false;
      viewer.desk = desk;
      return true;
    },

    desk(report: { attached: boolean; size?: TerminalSize }) {
      if (!report.attached) applyResize(size.deskDetached());
      else if (report.size) size.deskAttached(report.size);
    },
  };
}
