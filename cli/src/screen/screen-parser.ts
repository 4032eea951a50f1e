// screen-parser.ts: the @xterm/headless terminal behind the screen model (screen.ts). It parses PTY
// bytes, reads the visible rows for prompt-state.ts and serializes snapshots.
// Invariant: `whenParsed(cb)` runs `cb` synchronously right after every earlier write was parsed and
// before any later one is: the only point where a read matches an exact byte offset.
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { SCROLLBACK_LINES } from './plain-run.ts';
import { readPromptState, type PromptState, type ScreenRow } from './prompt-state.ts';


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
