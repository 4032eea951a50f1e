// A PTY Gemini's mode switched from the phone, over screens recorded from the real CLI (screen-fixtures/):
// Ctrl+Y goes only where the desk took Gemini out of yolo, and a frame drawn without the mode row (Gemini
// mid-redraw) is looked at again, not taken for a row that is not there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScreenModel } from '../../screen/screen.ts';
import { geminiModes } from './modes.ts';
import { readGeminiPrompt } from './screen.ts';

async function linesOf(name: string | null) {
  const screen = createScreenModel({ cols: 110, rows: 35, readPrompt: readGeminiPrompt });
  if (name) screen.write(new TextEncoder().encode(readFileSync(join(import.meta.dirname, 'screen-fixtures', `gemini-0.58.0-${name}.ans`), 'utf8').replace(/\n$/, '').replaceAll('\n', '\r\n')));
  const state = await screen.state();
  screen.stop();
  return state;
}

/** A screen that shows `frames` in turn (the last one stays), and the idle yolo screen once Ctrl+Y came. */
async function screens(frames: Array<string | null>) {
  const drawn = await Promise.all(frames.map(linesOf));
  const yolo = await linesOf('idle');
  const written: string[] = [];
  let read = 0;
  return {
    written,
    screen: { state: async () => (written.includes('\x19') ? yolo : drawn[Math.min(read++, drawn.length - 1)]!) },
    write: (data: string) => void written.push(data),
  };
}

describe("a PTY Gemini's mode from the phone", () => {
  it('in yolo already: nothing is typed', async () => {
    const s = await screens(['idle']);
    expect(await geminiModes.switchTo({ target: 'plan', screen: s.screen, write: s.write, settleMs: 300 })).toEqual({ ok: true, mode: 'plan' });
    expect(s.written).toEqual([]);
  });

  it('in its own auto-accept edits (the desk pressed Shift+Tab): Ctrl+Y, and the switch holds once yolo shows', async () => {
    const s = await screens(['desk-auto-edit']);
    expect(await geminiModes.switchTo({ target: 'plan', screen: s.screen, write: s.write, settleMs: 300 })).toEqual({ ok: true, mode: 'plan' });
    expect(s.written).toEqual(['\x19']);
  });

  it('a frame without the row first (mid-redraw): looked at again, then Ctrl+Y', async () => {
    const s = await screens([null, null, 'desk-auto-edit']);
    expect(await geminiModes.switchTo({ target: 'plan', screen: s.screen, write: s.write, settleMs: 1_000 })).toEqual({ ok: true, mode: 'plan' });
    expect(s.written).toEqual(['\x19']);
  });
});
