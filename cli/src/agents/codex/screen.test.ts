// screen.test.ts: Codex's input row read from its screen when the input is a long paste (a review's
// first prompt: instructions, a blank row, a diff), as Codex 0.171.0 drew it at 120×40 in
// tests/browser/review-real-codex.test.ts. Before findLongInput the reader found no input there, so
// the prompt was pasted but Enter never pressed. (The short input, choices and busy line: the e2e
// suites and model-picker.test.ts, on real screens.)
import { describe, expect, it } from 'vitest';
import type { ScreenRow } from '../../screen/prompt-state.ts';
import { findCodexInput, readCodexPrompt } from './screen.ts';

/** Rows as the screen model gives them; `dim` rows are drawn dim (a placeholder: not typed). */
const screen = (lines: string[], o: { rows?: number; dim?: number[] } = {}): ScreenRow[] => {
  const all = [...lines, ...Array<string>(Math.max(0, (o.rows ?? 40) - lines.length)).fill('')];
  return all.map((text, i) => ({ text, strong: o.dim?.includes(i) ? '' : text }));
};

const LONG_PASTE = [
  '╭──────────────────────────────────────────╮',
  '│ >_ OpenAI Codex (v0.171.0)               │',
  '╰──────────────────────────────────────────╯',
  '',
  '› You are reviewing the changes another coding agent made.',
  '  You run read-only: do not change any file.',
  '  Read the diff below and answer with your findings.',
  '',
  '  --- diff ---',
  '  diff --git a/src/app.ts b/src/app.ts',
  '  @@ -3,2 +3,2 @@ main()',
  '   keep',
  '  -  return 1;',
  '  +  return 2;',
  '  --- end of diff ---',
  '',
  '  gpt-fake default · /tmp/project',
];

describe("Codex's input, a long paste", () => {
  it('is found from its `›` row down to the blank row over the footer, blank rows inside it too', () => {
    const input = findCodexInput(screen(LONG_PASTE));
    expect(input?.row).toBe(4);
    // Rows 4–14 as drawn, without the `›` marker; the blank row over the footer ends it.
    const pasted = LONG_PASTE.slice(4, 15);
    expect(pasted.at(-1)).toBe('  --- end of diff ---');
    expect(input?.typed.split('\n')).toEqual([pasted[0]!.replace(/^›/, ''), ...pasted.slice(1)]);
    // Ready with text in it: the queue presses Enter.
    expect(readCodexPrompt({ rows: screen(LONG_PASTE), seenReady: true })).toEqual({ kind: 'ready', inputEmpty: false });
  });

  it('is no input when a row above the footer is neither indented nor blank (history, a choice)', () => {
    const history = [...LONG_PASTE.slice(0, 14), '• Ran the tests', '', '  gpt-fake default · /tmp/project'];
    expect(findCodexInput(screen(history))).toBeNull();
    const choice = [...LONG_PASTE.slice(0, 12), '  1. Yes, proceed (y)', '  2. No (esc)', '', '  gpt-fake default · /tmp/project'];
    expect(findCodexInput(screen(choice))).toBeNull();
    expect(readCodexPrompt({ rows: screen(choice), seenReady: true })).toEqual({ kind: 'dialog' });
  });

  it('an idle prompt still reads as before: empty (its placeholder is dim)', () => {
    const idle = ['', '› Ask Codex to do anything', '', '  gpt-fake default · /tmp/project', '  ? for shortcuts'];
    expect(readCodexPrompt({ rows: screen(idle, { dim: [1] }), seenReady: true })).toEqual({ kind: 'ready', inputEmpty: true });
  });
});
