// The offset → row mapping behind "Show in terminal", on a real xterm (@xterm/headless has the same
// buffer, markers and parser as the browser's).
import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/headless';
import { createMomentMap } from './moments.ts';

const encoder = new TextEncoder();
const ROWS = 5;

/** A viewer: an xterm and its moment map, fed chunk by chunk with absolute offsets. */
function viewer(scrollback: number) {
  const term = new Terminal({ cols: 30, rows: ROWS, scrollback, allowProposedApi: true });
  const moments = createMomentMap(term);
  let offset = 0;
  const write = (data: string | Uint8Array) => new Promise<void>((resolve) => term.write(data, resolve));
  return {
    term,
    moments,
    /** Draws `text` as bytes from the current offset; returns the offset it started at. */
    async chunk(text: string): Promise<number> {
      const bytes = encoder.encode(text);
      const start = offset;
      offset += bytes.length;
      await write(bytes);
      moments.drew(offset);
      return start;
    },
    async snapshot(snapshot: { offset: number; data: string; marks?: Parameters<typeof moments.snapshot>[0]['marks'] }) {
      term.reset();
      await write(snapshot.data);
      offset = snapshot.offset;
      moments.snapshot(snapshot);
    },
    get offset() {
      return offset;
    },
    topRowText(line: number) {
      return term.buffer.active.getLine(line)?.translateToString(true) ?? '';
    },
  };
}

const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `row ${from + i}\r\n`).join('');

const MARKS = { run: 'r', lines: ROWS, anchors: [], stills: [] };

describe('terminal moments', () => {
  it('finds the screen of a moment drawn here, also after it scrolled into the history', async () => {
    const v = viewer(1000);
    await v.snapshot({ offset: 0, data: '', marks: MARKS });
    await v.chunk(lines(1, 12));
    const moment = v.offset; // here the screen shows rows 9..12 and an empty row
    await v.chunk(lines(13, 40));
    const place = v.moments.locate({ run: 'r', start: moment });
    expect(place.kind).toBe('found');
    if (place.kind !== 'found') return;
    expect(v.topRowText(place.line)).toBe('row 9');
    // The end wins over the start when the call has finished.
    const ended = v.moments.locate({ run: 'r', start: 0, end: moment });
    expect(ended).toEqual(place);
  });

  it('a moment inside a chunk maps to the screen after that chunk', async () => {
    const v = viewer(1000);
    await v.snapshot({ offset: 0, data: '', marks: MARKS });
    const start = await v.chunk(lines(1, 12));
    await v.chunk(lines(13, 30));
    const place = v.moments.locate({ run: 'r', start: start + 3 });
    expect(place.kind === 'found' && v.topRowText(place.line)).toBe('row 9');
  });

  it('a moment older than the scrollback is gone, not a wrong row', async () => {
    const v = viewer(10);
    await v.snapshot({ offset: 0, data: '', marks: MARKS });
    await v.chunk(lines(1, 6));
    const old = v.offset;
    await v.chunk(lines(7, 60)); // far more than 10 rows of history since
    expect(v.moments.locate({ run: 'r', start: old })).toEqual({ kind: 'gone' });
    const recent = v.offset;
    await v.chunk(lines(61, 62));
    expect(v.moments.locate({ run: 'r', start: recent }).kind).toBe('found');
  });

  it('before the snapshot it joined from: found only where the runner anchored it', async () => {
    const v = viewer(1000);
    // The runner's snapshot at offset 5000 holds 12 rows; the moment at 4000 was the row "row 3".
    const data = lines(1, 11) + 'row 12';
    await v.snapshot({ offset: 5000, data, marks: { run: 'r', lines: 12, anchors: [{ offset: 4000, line: 2 }], stills: [] } });
    const anchored = v.moments.locate({ run: 'r', start: 4000 });
    expect(anchored.kind === 'found' && v.topRowText(anchored.line)).toBe('row 3');
    expect(v.moments.locate({ run: 'r', start: 4500 })).toEqual({ kind: 'gone' });
  });

  it('an anchor cut by a smaller scrollback here shifts with the cut, or is gone', async () => {
    const v = viewer(4); // 4 rows of history + 5 on screen = 9 of the snapshot's 12 rows survive
    const data = lines(1, 11) + 'row 12';
    await v.snapshot({ offset: 5000, data, marks: { run: 'r', lines: 12, anchors: [{ offset: 4000, line: 1 }, { offset: 4100, line: 6 }], stills: [] } });
    expect(v.moments.locate({ run: 'r', start: 4000 })).toEqual({ kind: 'gone' });
    const kept = v.moments.locate({ run: 'r', start: 4100 });
    expect(kept.kind === 'found' && v.topRowText(kept.line)).toBe('row 7');
  });

  it('another run (a resumed session restarted offsets) or bytes not drawn yet', async () => {
    const v = viewer(1000);
    // Before the first snapshot is drawn nothing can be said yet.
    expect(v.moments.locate({ run: 'r', start: 0 })).toEqual({ kind: 'later' });
    await v.snapshot({ offset: 0, data: '', marks: MARKS });
    await v.chunk(lines(1, 3));
    expect(v.moments.locate({ run: 'other', start: 1 })).toEqual({ kind: 'gone' });
    expect(v.moments.locate({ run: 'r', start: v.offset + 10 })).toEqual({ kind: 'later' });
  });

  it('a snapshot without marks (an older runner, a final screen) locates nothing', async () => {
    const v = viewer(1000);
    await v.snapshot({ offset: 100, data: lines(1, 3) });
    await v.chunk(lines(4, 9));
    expect(v.moments.locate({ run: 'r', start: 120 })).toEqual({ kind: 'gone' });
  });

  it('in the alternate screen (claude 2.1.330) a moment is the screen the runner kept, or gone', async () => {
    const v = viewer(1000);
    const still = { offset: 4000, cols: 30, rows: ROWS, data: 'the screen then' };
    // The snapshot was taken with the alternate screen showing: no rows to scroll back to.
    await v.snapshot({ offset: 5000, data: '\x1b[?1049h' + lines(1, 3), marks: { run: 'r', lines: ROWS, anchors: [], stills: [still] } });
    expect(v.moments.locate({ run: 'r', start: 3900, end: 4000 })).toEqual({ kind: 'still', still });
    expect(v.moments.locate({ run: 'r', start: 3000 })).toEqual({ kind: 'gone' });
    // A moment drawn here while the alternate screen shows has no row and no still: gone, not the
    // row of some other screen.
    await v.chunk(lines(4, 6));
    const during = v.offset;
    await v.chunk('\x1b[?1049l' + lines(7, 20));
    expect(v.moments.locate({ run: 'r', start: during })).toEqual({ kind: 'gone' });
  });

  it('two moments at one offset (no PTY byte read between two hooks) each get their own kept screen', async () => {
    const v = viewer(1000);
    // As the runner serializes: words apart by cursor moves, not spaces.
    const endOfSecond = { offset: 4000, cols: 30, rows: ROWS, data: '\x1b[1m●\x1b[22m Running\x1b[1C1 shell command…\r\n  ⎿\x1b[2C$ echo\x1b[1Csecond-call' };
    const startOfThird = { offset: 4000, cols: 30, rows: ROWS, data: '● Running 1 shell command…\r\n  ⎿  $ echo third-call' };
    await v.snapshot({ offset: 5000, data: '\x1b[?1049h' + lines(1, 3), marks: { run: 'r', lines: ROWS, anchors: [], stills: [endOfSecond, startOfThird] } });
    expect(v.moments.locate({ run: 'r', start: 3500, end: 4000 }, 'echo second-call')).toEqual({ kind: 'still', still: endOfSecond });
    expect(v.moments.locate({ run: 'r', start: 4000 }, 'echo third-call')).toEqual({ kind: 'still', still: startOfThird });
    // No hint, or one neither shows: the first the runner kept, the earlier moment's.
    expect(v.moments.locate({ run: 'r', start: 3500, end: 4000 })).toEqual({ kind: 'still', still: endOfSecond });
    expect(v.moments.locate({ run: 'r', start: 3500, end: 4000 }, 'echo nothing')).toEqual({ kind: 'still', still: endOfSecond });
  });
});
