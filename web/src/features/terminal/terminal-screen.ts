// terminal-screen.ts: the session terminal's xterm, as the controller (terminal-controller.ts) sees
// it: draw a snapshot or bytes, follow a size, say what would fit here, read keys, find and light up
// a moment's row. The one place that knows the browser's xterm and its addons, so the controller's
// rules (order, acks, subscription, jumps) run against a stand-in in unit tests.
import { WebLinksAddon } from '@xterm/addon-web-links';
import type { TerminalSnapshotMarks } from '@tether/shared';
import { decorateRows, findTextRows, highlightMoment } from './highlight.ts';
import { createMomentMap, type MomentPlace } from './moments.ts';
import { createWidthFit, createXterm, watchXterm } from './xterm.ts';

/** The moment map's part the controller uses (moments.ts). */
export type ScreenMoments = {
  snapshot(snapshot: { offset: number; marks?: TerminalSnapshotMarks }): void;
  drew(end: number): void;
  locate(moment: Parameters<ReturnType<typeof createMomentMap>['locate']>[0], hint?: string): MomentPlace;
};

export type TerminalScreen = {
  /** Clear, take the snapshot's size and draw it; `done` once xterm has parsed it. */
  reset(snapshot: { cols: number; rows: number; data: string }, done: () => void): void;
  write(data: Uint8Array, done: () => void): void;
  /** Follow the PTY's size (a no-op when it is the size already). */
  resize(cols: number, rows: number): void;
  /** What would fit in this view at the full type size, clamped to what the hub takes; null before
   *  the view has a size. */
  fitting(): { cols: number; rows: number } | null;
  /** Keys typed into the xterm; returns the unsubscribe. */
  onKeys(listener: (data: string) => void): () => void;
  /** The view's size settled after a change (keyboard, rotation, window); returns the unsubscribe. */
  onResized(listener: () => void): () => void;
  readonly moments: ScreenMoments;
  /** Scroll to `line` and light up the tool call's row there; returns what turns the light off. */
  showMoment(options: { line: number; tool: string; hint: string }): () => void;
  /** Scroll to the newest line holding `text` (Find's result) and light it up until the next jump;
   *  null when no line holds it (yet). */
  showText(text: string): (() => void) | null;
  focus(): void;
  dispose(): void;
};

export function openXtermScreen(options: { host: HTMLElement; readOnly: boolean }): TerminalScreen {
  const { host, readOnly } = options;
  const { term, fit } = createXterm({
    cursorBlink: false,
    // The PTY converts newlines itself; the stream is raw bytes from it.
    convertEol: false,
    // A share link watches: no keystrokes leave this terminal (the hub would refuse them anyway).
    disableStdin: readOnly,
    // Decorations (the brief highlight of a jumped-to row) are still marked experimental.
    allowProposedApi: true,
  });
  term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
  term.open(host);
  const widthFit = createWidthFit({ term, host });
  const moments = createMomentMap(term);
  return {
    reset(snapshot, done) {
      term.reset();
      term.resize(snapshot.cols, snapshot.rows);
      widthFit.apply();
      term.write(snapshot.data, done);
    },
    write: (data, done) => term.write(data, done),
    resize(cols, rows) {
      if (term.cols === cols && term.rows === rows) return;
      term.resize(cols, rows);
      widthFit.apply();
    },
    fitting() {
      const dims = widthFit.atBaseSize(() => fit.proposeDimensions());
      if (!dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) return null;
      return { cols: Math.max(2, Math.min(1000, Math.floor(dims.cols))), rows: Math.max(1, Math.min(500, Math.floor(dims.rows))) };
    },
    onKeys(listener) {
      const data = term.onData(listener);
      return () => data.dispose();
    },
    onResized: (listener) =>
      watchXterm({
        term,
        host,
        onResized: () => {
          widthFit.apply();
          listener();
        },
      }),
    moments,
    showMoment({ line, tool, hint }) {
      term.scrollToLine(line);
      return highlightMoment({ term, top: line, tool, hint });
    },
    showText(text) {
      const buffer = term.buffer.active;
      const found = findTextRows({
        length: buffer.length,
        rowText: (line, trim) => buffer.getLine(line)?.translateToString(trim) ?? '',
        wrapped: (line) => buffer.getLine(line)?.isWrapped ?? false,
        text,
      });
      if (!found) return null;
      term.scrollToLine(Math.max(0, found.line - Math.floor(term.rows / 3)));
      return decorateRows({ term, line: found.line, height: found.height, className: 'terminal-moment', steady: true });
    },
    focus: () => term.focus(),
    dispose() {
      moments.dispose();
      widthFit.dispose();
      term.dispose();
    },
  };
}
