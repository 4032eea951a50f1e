// screen-parser.ts: the @xterm/headless terminal behind the screen model (screen.ts). It parses PTY
// bytes, reads the visible rows for prompt-state.ts and serializes snapshots.
// Invariant: `whenParsed(cb)` runs `cb` synchronously right after every earlier write was parsed and
// before any later one is: the only point where a read matches an exact byte offset.
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { readPromptState, type PromptState, type ScreenRow } from './prompt-state.ts';

/** Scrollback kept in the model: enough for a snapshot with context, bounded in memory (~1 MB). */
const SCROLLBACK_LINES = 1000;

export type ScreenParser = ReturnType<typeof createScreenParser>;

export function createScreenParser(options: { cols: number; rows: number }) {
  const term = new Terminal({ cols: options.cols, rows: options.rows, scrollback: SCROLLBACK_LINES, allowProposedApi: true });
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  let seenReady = false;

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
    write: (data: Uint8Array, parsed: () => void) => term.write(data, parsed),
    whenParsed: (callback: () => void) => term.write('', callback),
    resize: (size: { cols: number; rows: number }) => term.resize(size.cols, size.rows),
    rows,
    /** Prompt state of `screenRows` (this screen's rows); once past 'starting' it never returns to it. */
    promptState: (screenRows: ScreenRow[]): PromptState => {
      const state = readPromptState({ rows: screenRows, seenReady });
      if (state.kind !== 'starting') seenReady = true;
      return state;
    },
    /** ANSI that redraws this screen in a fresh terminal of the same size, with up to `scrollback`
     *  lines of history above it, halved until the result fits `maxChars`. */
    serialize: (serializeOptions: { scrollback: number; maxChars: number }): string => {
      let lines = serializeOptions.scrollback;
      for (;;) {
        const data = serializer.serialize({ scrollback: lines });
        if (data.length <= serializeOptions.maxChars || lines === 0) return data;
        lines = Math.floor(lines / 2);
      }
    },
    cols: () => term.cols,
    rowsCount: () => term.rows,
    stop: () => term.dispose(),
  };
}
