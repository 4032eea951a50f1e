// screen.ts: an @xterm/headless model of claude's screen, fed with the same bytes the PTY emits.
// It answers "what is the TUI doing, and is the input box empty?" (prompt-state.ts) and produces
// snapshots for viewers whose bytes are gone (snapshot.ts).
// Invariant: reads reflect every byte written before the last `settled()` resolved; the model is
// resized together with the PTY so its rows match what claude draws.
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { readPromptState, type PromptState, type ScreenRow } from './prompt-state.ts';

/** Scrollback kept in the model: enough for a snapshot with context, bounded in memory (~1 MB). */
const SCROLLBACK_LINES = 1000;

export type ScreenModel = {
  /** PTY output, as bytes (xterm decodes UTF-8 across chunks) or text. */
  write(data: string | Uint8Array): void;
  /** Bytes (or UTF-16 units) written but not parsed yet: xterm parses in slices between turns. */
  backlog(): number;
  resize(size: { cols: number; rows: number }): void;
  /** Resolves once every write so far has been parsed. */
  settled(): Promise<void>;
  /** Calls `callback` synchronously at the moment every write so far, and no later one, has been
   *  parsed: the only point where a snapshot matches an exact byte offset (a promise would resolve
   *  a microtask later, after the parser may have moved on). */
  whenParsed(callback: () => void): void;
  rows(): ScreenRow[];
  /** The visible screen as plain text, one line per row (trailing spaces trimmed). */
  text(): string;
  promptState(): PromptState;
  /** Serialized screen (ANSI) that redraws this state in a fresh terminal of the same size, with up
   *  to `scrollback` lines of history above it (default none). */
  serialize(options?: { scrollback?: number }): string;
  cols(): number;
  rowsCount(): number;
  stop(): void;
};

export function createScreenModel(options: { cols: number; rows: number }): ScreenModel {
  const term = new Terminal({ cols: options.cols, rows: options.rows, scrollback: SCROLLBACK_LINES, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  let seenReady = false;
  let backlog = 0;

  const rows = (): ScreenRow[] => {
    const buffer = term.buffer.active;
    const result: ScreenRow[] = [];
    const cell = buffer.getNullCell();
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      if (!line) {
        result.push({ text: '', strong: '' });
        continue;
      }
      const text = line.translateToString(true);
      let strong = '';
      for (let x = 0; x < line.length; x++) {
        const c = line.getCell(x, cell);
        if (!c) break;
        if (c.getWidth() === 0) continue;
        const chars = c.getChars() || ' ';
        strong += c.isDim() ? ' '.repeat(chars.length) : chars;
      }
      result.push({ text, strong: strong.trimEnd() });
    }
    return result;
  };

  return {
    write: (data) => {
      const n = data.length;
      backlog += n;
      term.write(data, () => {
        backlog -= n;
      });
    },
    backlog: () => backlog,
    resize: (size) => term.resize(size.cols, size.rows),
    settled: () => new Promise<void>((resolve) => term.write('', resolve)),
    whenParsed: (callback) => term.write('', callback),
    rows,
    text: () => rows().map((r) => r.text).join('\n'),
    promptState: () => {
      const state = readPromptState({ rows: rows(), seenReady });
      if (state.kind !== 'starting') seenReady = true;
      return state;
    },
    serialize: (serializeOptions = {}) => serializer.serialize({ scrollback: serializeOptions.scrollback ?? 0 }),
    cols: () => term.cols,
    rowsCount: () => term.rows,
    stop: () => term.dispose(),
  };
}
