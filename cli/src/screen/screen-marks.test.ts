// The screen model's marks: a snapshot says which of its rows was the top of the screen at each
// marked moment, and a fresh terminal that draws the snapshot finds the same row there.
import { describe, expect, it } from 'vitest';
import { Terminal } from '@xterm/headless';
import { createScreenModel } from './screen.ts';

/** These tests read bytes and rows, not an agent's prompt. */
const noPrompt = () => ({ kind: 'starting' }) as const;

function writeAll(term: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `\x1b[32mline ${from + i}\x1b[0m\r\n`).join('');

describe('screen marks', () => {
  it('locates a marked moment in a snapshot, rows counted from its first serialized row', async () => {
    const screen = createScreenModel({ cols: 40, rows: 10, readPrompt: noPrompt });
    screen.write(lines(1, 30));
    const offset = await screen.mark();
    expect(offset).toBe(screen.written());
    screen.write(lines(31, 60));
    const snapshot = await screen.snapshot({ scrollback: 1000 });
    const anchor = snapshot.marks.anchors.find((a) => a.offset === offset);
    expect(anchor).toBeDefined();

    const viewer = new Terminal({ cols: snapshot.cols, rows: snapshot.rows, scrollback: 5000, allowProposedApi: true });
    await writeAll(viewer, snapshot.data);
    expect(viewer.buffer.active.length).toBe(snapshot.marks.lines);
    // After 30 lines on a 10-row screen the top row was "line 22" (the cursor sits on an empty 11th).
    expect(viewer.buffer.active.getLine(anchor!.line)?.translateToString(true)).toBe('line 22');
    screen.stop();
    viewer.dispose();
  });

  it('a moment whose rows left the snapshot (history cut to fit) has no anchor', async () => {
    const screen = createScreenModel({ cols: 40, rows: 10, readPrompt: noPrompt });
    screen.write(lines(1, 15));
    const early = await screen.mark();
    screen.write(lines(16, 200));
    const late = await screen.mark();
    const snapshot = await screen.snapshot({ scrollback: 20 });
    expect(snapshot.marks.anchors.map((a) => a.offset)).toEqual([late]);
    expect(snapshot.marks.anchors.some((a) => a.offset === early)).toBe(false);
    screen.stop();
  });
});

describe('screen stills', () => {
  it('keeps the alternate screen at a moment as a plain screen (no history, no modes)', async () => {
    const screen = createScreenModel({ cols: 40, rows: 6, readPrompt: noPrompt });
    screen.write(`normal text\r\n\x1b[?1049h\x1b[?1000h\x1b[Hin the alt screen\r\n$ echo hi`);
    const offset = await screen.mark();
    const snapshot = await screen.snapshot({ scrollback: 1000 });
    const still = snapshot.marks.stills.find((s) => s.offset === offset)!;
    expect(still).toMatchObject({ cols: 40, rows: 6 });
    expect(still.data).not.toContain('\x1b[?1049h');
    expect(still.data).not.toContain('\x1b[?1000h');
    const viewer = new Terminal({ cols: 40, rows: 6, allowProposedApi: true });
    await writeAll(viewer, still.data);
    expect(viewer.buffer.active.type).toBe('normal');
    expect(viewer.buffer.active.getLine(0)?.translateToString(true)).toBe('in the alt screen');
    expect(viewer.buffer.active.getLine(1)?.translateToString(true)).toBe('$ echo hi');
    // The alternate screen has no rows to find later: no anchor, only the still.
    expect(snapshot.marks.anchors).toEqual([]);
    screen.stop();
    viewer.dispose();
  });

  // claude's PostToolUse can reach the runner before the frame that draws the call (measured with
  // claude 2.1.331: at PreToolUse the call was never on screen, at PostToolUse it was, by a few
  // hundred bytes; on a loaded box the hook won, and "Show in terminal" opened a screen without it).
  it('a still taken before its call is drawn takes the first later screen that shows the call', async () => {
    const screen = createScreenModel({ cols: 40, rows: 6, readPrompt: noPrompt });
    screen.write('\x1b[?1049h\x1b[HMiddle paragraph 30.');
    const offset = await screen.mark({ shows: 'echo second-call' });
    // Each frame ends as claude's do, with an escape sequence (the end of a synchronized update).
    screen.write('\x1b[?2026h\r\n\x1b[32m$\x1b[0m echo second-call\x1b[?2026l');
    screen.write('\x1b[?2026h\r\nLater paragraph 1.\x1b[?2026l');
    const snapshot = await screen.snapshot();
    const still = snapshot.marks.stills.find((s) => s.offset === offset)!;
    expect(still.data).toContain('echo second-call');
    // The first screen that showed it, not a later one.
    expect(still.data).not.toContain('Later paragraph');
    screen.stop();
  });

  it('a still that already shows its call, or whose call never shows, keeps the screen of its moment', async () => {
    const screen = createScreenModel({ cols: 40, rows: 6, readPrompt: noPrompt });
    screen.write('\x1b[?1049h\x1b[H$ echo first-call');
    const shown = await screen.mark({ shows: 'echo first-call' });
    const never = await screen.mark({ shows: 'echo other-call' });
    screen.write('\x1b[2J\x1b[Hsomething else');
    const snapshot = await screen.snapshot();
    expect(snapshot.marks.stills.find((s) => s.offset === shown)!.data).toContain('echo first-call');
    expect(snapshot.marks.stills.find((s) => s.offset === never)!.data).toContain('echo first-call');
    screen.stop();
  });
});
