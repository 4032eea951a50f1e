// screen.test.ts: Codex's input row read from its screen when the input is a long paste (a review's
// first prompt: instructions, a blank row, a diff), as Codex 0.171.0 drew it at 120×40 in
// tests/browser/review-real-codex.test.ts. Before findLongInput the reader found no input there, so
// the prompt was pasted but Enter never pressed. (The short input, choices and busy line: the e2e
// suites and model-picker.test.ts, on real screens.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScreenRow } from '../../screen/prompt-state.ts';
import { codexScreen, findCodexInput, readCodexPrompt } from './screen.ts';

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

/** A screen recorded from Codex 0.171.0 at 110×35 (screen-fixtures/*.ans: serialized from the runner's
 *  screen, its modes kept: the terminal's cursor hidden or shown), read as the runner reads it. */
async function recorded(name: string) {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { createScreenModel } = await import('../../screen/screen.ts');
  const { codexScreen } = await import('./screen.ts');
  const screen = createScreenModel({ cols: 110, rows: 35, readPrompt: readCodexPrompt });
  screen.write(new TextEncoder().encode(readFileSync(join(import.meta.dirname, 'screen-fixtures', `codex-0.171.0-${name}.ans`), 'utf8')));
  const state = await screen.state();
  screen.stop();
  return codexScreen.readDialog(state.lines);
}

describe("Codex's question (request_user_input in Plan mode), 0.171.0", () => {
  it('reads its headline, its options with their descriptions, and a note it offers', async () => {
    const dialog = await recorded('question');
    expect(dialog).toMatchObject({ title: 'Question 1/1 (1 unanswered)', headline: 'Which database should the tests use?', numbered: true, cursor: 0 });
    expect(dialog!.options).toEqual([
      { key: '1', label: 'SQLite (Recommended)', detail: 'A file per test' },
      { key: '2', label: 'PostgreSQL', detail: 'A throwaway cluster' },
      { key: '3', label: 'None of the above', detail: 'Optionally, add details in notes (tab)' },
    ]);
    expect(dialog!.freeText).toEqual({ notes: { focusKey: '\t' }, focused: false, typed: '' });
  });

  it('reads the note field focused (the terminal cursor on it), then what is typed; the question stays the same', async () => {
    const first = (await recorded('question'))!;
    const other = (await recorded('question-other'))!;
    const notes = (await recorded('question-notes'))!;
    const typed = (await recorded('question-notes-typed'))!;
    expect(other.cursor).toBe(2);
    expect(other.freeText).toMatchObject({ focused: false });
    expect(notes.freeText).toEqual({ notes: { focusKey: '\t' }, focused: true, typed: '' });
    expect(typed.freeText).toEqual({ notes: { focusKey: '\t' }, focused: true, typed: 'my notes here' });
    expect(new Set([first.identity, other.identity, notes.identity, typed.identity]).size).toBe(1);
  });
});

// Codex 0.171.0's network approval at the desk (tests/e2e/codex-network.test.ts, 110×35), as drawn
// once the hook's question was handed to it (screen-fixtures/codex-0.171.0-network-approval.txt).
const NETWORK_DIALOG = readFileSync(join(import.meta.dirname, 'screen-fixtures', 'codex-0.171.0-network-approval.txt'), 'utf8').trimEnd().split('\n');

describe("Codex's approval dialog", () => {
  it('its question above the facts is the headline (the host), the facts are its text, the options as drawn', () => {
    const dialog = codexScreen.readDialog(screen(NETWORK_DIALOG, { rows: 35 }));
    expect(dialog?.headline).toBe('Do you want to approve network access to "127.0.0.1"?');
    expect(dialog?.text.slice(0, 5)).toEqual(['Do you want to approve network access to "127.0.0.1"?', '', 'Environment: local', '', 'Reason: Network access to 127.0.0.1 requires approval']);
    expect(dialog?.options.map((o) => o.label)).toEqual(['Yes, just this once (y)', 'Yes, and allow this host for this conversation (a)', 'Yes, and allow this host in the future (p)', 'No, and tell Codex what to do differently (esc)']);
  });

  it('a line of the reply one blank row above that ends with `?` is not taken for the question', () => {
    const rows = [...NETWORK_DIALOG];
    rows[6] = '  Shall I fetch it now?';
    expect(codexScreen.readDialog(screen(rows, { rows: 35 }))?.headline).toBeUndefined();
  });
});
