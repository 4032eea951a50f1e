// screen.ts: an @xterm/headless model of the agent's screen, fed with the same bytes the PTY emits.
// It answers "what is the TUI doing, and is the input box empty?" (prompt-state.ts) and produces
// snapshots for viewers whose bytes are gone.
//
//   runner: write(bytes) ──► plain-run.ts (drops what a flood of plain text pushes out of history)
//                        ──► xterm parses in slices between event-loop turns (screen-parser.ts)
//           state() / snapshot() ──queued behind the bytes──► answered at exactly that offset
//
// Reads are asynchronous so that they can only be answered at an exact offset. Parsing stays on the
// runner's thread: a worker thread was built and measured (docs/decisions/terminal.md) and did not
// raise the throughput through the hub on a 2-core box.
// Invariants: offsets count bytes written here (the runner writes every PTY byte, so they are PTY
// offsets); `state()` and `snapshot()` reflect every byte written before the call and none after;
// a resize applies after the bytes written before it. After stop() pending reads never settle.
import type { PromptReader, PromptState, ScreenRow } from './prompt-state.ts';
import { createScreenParser, type ScreenMarks } from './screen-parser.ts';
import { createPlainRuns } from './plain-run.ts';

export type ScreenState = {
  /** Bytes written to the model before this read (the state is exactly theirs). */
  offset: number;
  cols: number;
  rows: number;
  lines: ScreenRow[];
  /** The visible screen as plain text, one line per row (trailing spaces trimmed). */
  text: string;
  promptState: PromptState;
};

export type ScreenSnapshot = { offset: number; cols: number; rows: number; data: string; marks: ScreenMarks };
export type { ScreenMarks };

export type ScreenModel = {
  /** PTY output, as bytes (xterm decodes UTF-8 across chunks) or text (counted as UTF-8 bytes).
   *  The array is not modified. */
  write(data: string | Uint8Array): void;
  /** Bytes written so far: the offset the next read will be at. */
  written(): number;
  /** Bytes written that were never parsed: the front of plain floods, which cannot reach the screen
   *  or its history (plain-run.ts). Diagnostics and tests only. */
  skipped(): number;
  /** Bytes written but not parsed yet: xterm parses in slices between event-loop turns. */
  backlog(): number;
  resize(size: { cols: number; rows: number }): void;
  /** Resolves once every byte written so far has been parsed. */
  settled(): Promise<void>;
  /** The screen after exactly the bytes written so far. */
  state(): Promise<ScreenState>;
  /** ANSI that redraws the screen after exactly the bytes written so far in a fresh terminal of its
   *  size, with up to `scrollback` lines of history (default none), halved until it fits `maxChars`. */
  snapshot(options?: { scrollback?: number; maxChars?: number }): Promise<ScreenSnapshot>;
  /** Remembers where the screen is after exactly the bytes written so far, under that offset, so
   *  later snapshots can say which of their rows it was (a tool call's moment, for "Show in
   *  terminal"). Resolves with the offset. `shows`: text on screen once the moment's call is drawn
   *  (its still waits for it a little; see screen-parser.ts). */
  mark(options?: { shows?: string }): Promise<number>;
  /** The size as last set (applied in order with the bytes). */
  cols(): number;
  rowsCount(): number;
  stop(): void;
};

export function createScreenModel(options: { cols: number; rows: number; /** The agent's reading of its prompt (agents/<agent>/). */ readPrompt: PromptReader }): ScreenModel {
  const parser = createScreenParser({ cols: options.cols, rows: options.rows, readPrompt: options.readPrompt });
  const encoder = new TextEncoder();
  let cols = options.cols;
  let rows = options.rows;
  let written = 0;
  let parsed = 0;
  /** Bytes handed to xterm and not parsed yet (dropped plain bytes are not among them). */
  let queued = 0;
  let skipped = 0;
  let stopped = false;
  const runs = createPlainRuns({
    rows: () => rows,
    sink: {
      parse: (bytes, dropped) => {
        const n = bytes.length;
        queued += n;
        skipped += dropped;
        // An empty write still calls back in order: skipped bytes count as parsed right there.
        parser.write(bytes, () => {
          queued -= n;
          parsed += n + dropped;
          parser.settleStills();
        });
      },
      askAtParsed: (answer) => parser.whenParsed(() => answer(!stopped && parser.atPlainGround())),
    },
  });
  /** Runs `read` right after every byte written so far was parsed (xterm's write callback): the
   *  value is taken there, at an exact offset; the promise only delivers it. */
  const at = <T>(read: (offset: number) => T): Promise<T> =>
    new Promise<T>((resolve) => {
      if (stopped) return;
      runs.flush();
      parser.whenParsed(() => {
        if (!stopped) resolve(read(parsed));
      });
    });

  return {
    write: (data) => {
      if (stopped) return;
      const bytes = typeof data === 'string' ? encoder.encode(data) : data;
      if (bytes.length === 0) return;
      written += bytes.length;
      runs.write(bytes);
    },
    written: () => written,
    skipped: () => skipped,
    backlog: () => queued + runs.heldBytes(),
    resize: (size) => {
      if (stopped || (size.cols === cols && size.rows === rows)) return;
      runs.end();
      cols = size.cols;
      rows = size.rows;
      // After the bytes before it: they were drawn at the old size.
      parser.whenParsed(() => {
        if (!stopped) parser.resize(size);
      });
    },
    settled: () => (parsed >= written ? Promise.resolve() : at(() => undefined)),
    state: () =>
      at((offset) => {
        const lines = parser.rows();
        return { offset, cols: parser.cols(), rows: parser.rowsCount(), lines, text: lines.map((r) => r.text).join('\n'), promptState: parser.promptState(lines) };
      }),
    snapshot: (snapshotOptions = {}) =>
      at((offset) => ({
        offset,
        cols: parser.cols(),
        rows: parser.rowsCount(),
        ...parser.serialize({ scrollback: snapshotOptions.scrollback ?? 0, maxChars: snapshotOptions.maxChars ?? Number.MAX_SAFE_INTEGER }),
      })),
    mark: (markOptions = {}) =>
      at((offset) => {
        parser.mark(offset, markOptions);
        return offset;
      }),
    cols: () => cols,
    rowsCount: () => rows,
    stop: () => {
      if (stopped) return;
      stopped = true;
      parser.stop();
    },
  };
}
