// screen-parser.ts: the @xterm/headless terminal behind the screen model (screen.ts). It parses PTY
// bytes, reads the visible rows for prompt-state.ts and serializes snapshots.
// Invariant: `whenParsed(cb)` runs `cb` synchronously right after every earlier write was parsed and
// before any later one is: the only point where a read matches an exact byte offset.
import { Terminal, type IMarker } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { SCROLLBACK_LINES } from './plain-run.ts';
import type { PromptReader, PromptState, ScreenRow } from './prompt-state.ts';

/** Tool-call moments kept for snapshots (two per call). Markers of rows pushed out of the history
 *  dispose themselves; this only bounds a session whose calls never scroll. */
const MAX_MARKS = 1_000;

/** Screens kept as they were at the latest moments (both ends of a call), each a few KB. A viewer
 *  that opens the terminal at a call gets them with its snapshot; older calls have only their rows. */
const MAX_STILLS = 24;
/** A still larger than this (a huge, busy screen) is not kept: snapshots must stay small. */
const MAX_STILL_CHARS = 32 * 1024;
/** What stills may add to a snapshot (newest first); the screen and history get the rest of its budget. */
const STILLS_BUDGET_CHARS = 192 * 1024;

/** How long a still that does not show its call yet may be replaced by a later screen that does. */
export const STILL_SETTLE_MS = 2_000;

/** What the serializer writes before the alternate screen's rows. */
const ALT_SCREEN_START = '\u001b[?1049h\u001b[H';

export type ScreenStill = { offset: number; cols: number; rows: number; data: string };
export type ScreenMarks = { lines: number; anchors: Array<{ offset: number; line: number }>; stills: ScreenStill[] };

/** The parts of @xterm/headless 6 internals atPlainGround reads (all optional: checked at runtime). */
type XtermCoreInternals = {
  _inputHandler?: {
    _parser?: { currentState: number };
    _utf8Decoder?: { interim: Uint8Array };
    _parseStack?: { paused: boolean };
  };
  buffer?: { scrollTop: number; scrollBottom: number };
};

export type ScreenParser = ReturnType<typeof createScreenParser>;

export function createScreenParser(options: { cols: number; rows: number; readPrompt: PromptReader }) {
  const term = new Terminal({ cols: options.cols, rows: options.rows, scrollback: SCROLLBACK_LINES, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  let seenReady = false;
  /** Moments (PTY offsets) and the row that was the top of the screen when each was drawn. */
  let marks: Array<{ offset: number; marker: IMarker }> = [];
  let stills: ScreenStill[] = [];
  /** Stills taken before claude drew their call: the text that shows it, and until when to wait. */
  let unsettled: Array<{ still: ScreenStill; shows: string; until: number }> = [];

  /** Whether the agent shows the terminal's cursor (DECTCEM), read from xterm's internals; unknown
   *  is hidden. */
  const caretShown = (): boolean => (term as unknown as { _core?: { coreService?: { isCursorHidden?: boolean } } })._core?.coreService?.isCursorHidden === false;

  const rows = (): ScreenRow[] => {
    const buffer = term.buffer.active;
    const result: ScreenRow[] = [];
    const caretRow = caretShown() ? buffer.cursorY : -1;
    const cell = buffer.getNullCell();
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      if (!line) {
        result.push({ text: '', strong: '' });
        continue;
      }
      const text = line.translateToString(true);
      let strong = '';
      let cursor: number | undefined;
      const fg: number[] = [];
      for (let x = 0; x < line.length; x++) {
        const c = line.getCell(x, cell);
        if (!c) break;
        if (c.getWidth() === 0) continue;
        const chars = c.getChars() || ' ';
        if (cursor === undefined && c.isInverse()) cursor = strong.length;
        const colour = c.getFgColorMode() === 0 ? -1 : c.getFgColorMode() | c.getFgColor();
        for (let i = 0; i < chars.length; i++) fg.push(colour);
        strong += c.isDim() ? ' '.repeat(chars.length) : chars;
      }
      result.push({
        text,
        strong: strong.trimEnd(),
        fg: fg.slice(0, text.length),
        ...(cursor !== undefined && cursor <= text.length ? { cursor } : {}),
        ...(y === caretRow ? { caret: buffer.cursorX } : {}),
      });
    }
    return result;
  };

  const screenText = (): string => rows().map((r) => r.text).join('\n');

  /** The screen alone, as a plain screen: no modes (mouse tracking, hidden cursor) and, when the
   *  alternate screen shows, only its rows (a viewer draws a still in a normal screen, where it can
   *  highlight a row). Null when it is too large to keep. */
  const stillNow = (): string | null => {
    const full = serializer.serialize({ scrollback: 0, excludeModes: true });
    const altAt = term.buffer.active.type === 'alternate' ? full.lastIndexOf(ALT_SCREEN_START) : -1;
    const still = altAt >= 0 ? full.slice(altAt + ALT_SCREEN_START.length) : full;
    return still.length <= MAX_STILL_CHARS ? still : null;
  };

  return {
    write: (data: Uint8Array, parsed: () => void) => term.write(data, parsed),
    /** Call after bytes were parsed: a still waiting for its call takes this screen if it shows it. */
    settleStills: (now = Date.now()): void => {
      if (unsettled.length === 0) return;
      const text = screenText();
      unsettled = unsettled.filter((u) => {
        if (now > u.until) return false;
        if (!text.includes(u.shows)) return true;
        const data = stillNow();
        if (data !== null) Object.assign(u.still, { cols: term.cols, rows: term.rows, data });
        return false;
      });
    },
    whenParsed: (callback: () => void) => term.write('', callback),
    resize: (size: { cols: number; rows: number }) => term.resize(size.cols, size.rows),
    /** Whether a run of plain text starting here may be shortened (plain-run.ts): the parser is in
     *  its ground state (no escape sequence, string or UTF-8 character half read) and the scroll
     *  region is the whole screen. Read from xterm's internals; if they are not where expected the
     *  answer is no, and every byte is parsed as before. */
    atPlainGround: (): boolean => {
      const core = (term as unknown as { _core?: XtermCoreInternals })._core;
      const parser = core?._inputHandler?._parser;
      const interim = core?._inputHandler?._utf8Decoder?.interim;
      const buffer = core?.buffer;
      if (!parser || !interim || !buffer) return false;
      return (
        parser.currentState === 0 &&
        interim[0] === 0 &&
        core._inputHandler!._parseStack?.paused === false &&
        buffer.scrollTop === 0 &&
        buffer.scrollBottom === term.rows - 1
      );
    },
    rows,
    /** Prompt state of `screenRows` (this screen's rows); once past 'starting' it never returns to it. */
    promptState: (screenRows: ScreenRow[]): PromptState => {
      const state = options.readPrompt({ rows: screenRows, seenReady });
      if (state.kind !== 'starting') seenReady = true;
      return state;
    },
    /** Remembers the screen's top row now, as the place of byte `offset` (call right after the
     *  bytes before it were parsed). Only the normal buffer has a history to find it in later.
     *  `shows`: text that is on the screen once claude has drawn the moment's call (a value of the
     *  call's input). The hook that reports a call can reach the runner before the frame that draws
     *  it (claude renders on a timer, and the PTY's bytes are read a moment later than a hook's
     *  request); the still of such a moment is replaced by the first screen, within STILL_SETTLE_MS,
     *  that shows that text. A still is only ever replaced by one that shows its call. */
    mark: (offset: number, markOptions: { shows?: string; now?: number } = {}): void => {
      const data = stillNow();
      if (data !== null) {
        const still = { offset, cols: term.cols, rows: term.rows, data };
        stills.push(still);
        if (stills.length > MAX_STILLS) stills = stills.slice(-MAX_STILLS);
        const shows = markOptions.shows?.trim();
        if (shows && !screenText().includes(shows)) unsettled.push({ still, shows, until: (markOptions.now ?? Date.now()) + STILL_SETTLE_MS });
      }
      const buffer = term.buffer.active;
      if (buffer.type !== 'normal') return;
      const marker = term.registerMarker(-buffer.cursorY);
      if (!marker) return;
      marks.push({ offset, marker });
      marks = marks.filter((m) => !m.marker.isDisposed);
      while (marks.length > MAX_MARKS) marks.shift()!.marker.dispose();
    },
    /** ANSI that redraws this screen in a fresh terminal of the same size, with up to `scrollback`
     *  lines of history above it, halved until the result fits `maxChars`; and where the marked
     *  moments are in it (rows counted from its first serialized row, as the serializer takes the
     *  last `scrollback + rows` rows of the normal buffer). */
    serialize: (serializeOptions: { scrollback: number; maxChars: number }): { data: string; marks: ScreenMarks } => {
      const kept: ScreenStill[] = [];
      let stillChars = 0;
      for (let i = stills.length - 1; i >= 0; i--) {
        const still = stills[i]!;
        if (stillChars + still.data.length > Math.min(STILLS_BUDGET_CHARS, serializeOptions.maxChars / 4)) break;
        stillChars += still.data.length;
        kept.unshift(still);
      }
      let lines = serializeOptions.scrollback;
      let data: string;
      for (;;) {
        data = serializer.serialize({ scrollback: lines });
        if (data.length <= serializeOptions.maxChars - stillChars || lines === 0) break;
        lines = Math.floor(lines / 2);
      }
      const buffer = term.buffer.normal;
      const first = buffer.length - Math.min(buffer.length, lines + term.rows);
      const anchors = term.buffer.active.type === 'normal'
        ? marks.filter((m) => !m.marker.isDisposed && m.marker.line >= first).map((m) => ({ offset: m.offset, line: m.marker.line - first }))
        : [];
      return { data, marks: { lines: buffer.length - first, anchors, stills: kept } };
    },
    cols: () => term.cols,
    rowsCount: () => term.rows,
    stop: () => term.dispose(),
  };
}
