// screen.ts: how Codex's TUI is read from its rendered screen (0.160.0 and 0.169.0, at 110×35):
//
//   • Working (3s • esc to interrupt)       while a turn runs, above the input
//   › Ask Codex to do anything               the input row: `›`, then what is typed (the placeholder is dim)
//                                            (continuation rows of a long input; a long paste
//                                            runs over many rows, blank ones too: findLongInput)
//     gpt-fake default · /path               footer rows (model, cwd, shortcuts)
//
// A choice replaces the input row: text, a blank row, then options with `›` on the chosen one,
// numbered ("› 1. Yes, proceed (y)"), and a hint row; no rule tops it. Structure first: the only words
// read are "esc to interrupt", which both versions draw while busy, and an approval's question
// ("Do you want to…?", withQuestionAbove).
import { readDialog, type DialogMarks, type ScreenDialog } from '../../dialogs/read-dialog.ts';
import type { PromptState, ScreenRow } from '../../screen/prompt-state.ts';

const MARKER = '›';
/** Rows under the input row (footer): more means the `›` row is something else. */
const MAX_FOOTER_ROWS = 4;
/** How far above the input row the busy line may sit. */
const BUSY_ROWS_ABOVE = 3;
const NUMBERED_OPTION = /^\s*(?:› )?\s*\d+\.\s+\S/;

/** The input row: the lowest row starting with `›` that no numbered option follows, with at most a
 *  few footer rows under it. Null while none is drawn (starting, or a choice is up). */
export function findCodexInput(rows: readonly ScreenRow[]): { row: number; typed: string } | null {
  let last = rows.length - 1;
  while (last >= 0 && rows[last]!.text.trim() === '') last--;
  for (let row = last; row >= 0 && row >= last - MAX_FOOTER_ROWS - 6; row--) {
    const text = rows[row]!.text;
    if (!text.startsWith(MARKER)) continue;
    if (NUMBERED_OPTION.test(text.slice(MARKER.length)) && rows.slice(row + 1, last + 1).some((r) => NUMBERED_OPTION.test(r.text))) return null;
    // The typed text and its continuation rows (indented, up to the first blank row).
    const typed = [rows[row]!.strong.slice(MARKER.length)];
    let below = row + 1;
    while (below <= last && rows[below]!.text.trim() !== '' && rows[below]!.text.startsWith('  ') && rows[below]!.strong.trim() !== '' && below - row <= 8) {
      if (NUMBERED_OPTION.test(rows[below]!.text)) return null;
      typed.push(rows[below]!.strong);
      below++;
    }
    const footer = rows.slice(row + 1, last + 1).filter((r) => r.text.trim() !== '');
    if (footer.length > MAX_FOOTER_ROWS + (below - row - 1)) continue;
    return { row, typed: typed.join('\n') };
  }
  return findLongInput(rows, last);
}

/** An input taller than the rows read above (a long paste, such as a review's first prompt: its
 *  diff runs over many rows, with blank rows inside): the footer is the last few rows under a blank
 *  one; above it, every row up to the lowest `›` row is the input's (indented, or blank). Without
 *  this the input was never found, the prompt never ready, and Enter never pressed. */
function findLongInput(rows: readonly ScreenRow[], last: number): { row: number; typed: string } | null {
  let separator = last;
  while (separator >= 0 && rows[separator]!.text.trim() !== '') separator--;
  if (separator < 1 || last - separator > MAX_FOOTER_ROWS) return null;
  for (let row = separator - 1; row >= 0; row--) {
    const text = rows[row]!.text;
    if (text.startsWith(MARKER)) {
      const typed = rows.slice(row, separator).map((r, i) => (i === 0 ? r.strong.slice(MARKER.length) : r.strong));
      return { row, typed: typed.join('\n').trimEnd() };
    }
    // Anything but a continuation row: what is above is not this input (history, a choice).
    if (text.trim() !== '' && (!text.startsWith('  ') || NUMBERED_OPTION.test(text))) return null;
  }
  return null;
}

export const CODEX_DIALOG_MARKS: DialogMarks = {
  marker: MARKER,
  inputBoxShown: (rows) => findCodexInput(rows) !== null,
  rule: false,
  // Its questions (request_user_input, drawn in Plan mode): "Question 1/1 (1 unanswered)", the
  // question, the options; Tab adds a note to the chosen one. The hint row's words are the only sign
  // before Tab: "tab to add notes | enter to submit answer" (0.171.0).
  questionAboveOptions: true,
  notes: { offered: (hints) => hints.some((hint) => /\bnotes\b/.test(hint)), key: '\t' },
};

/** Codex's approval dialogs draw their question, then its facts, in paragraphs one blank row apart
 *  (0.171.0, a network approval: `Do you want to approve network access to "127.0.0.1"?`, blank,
 *  `Environment: local`, blank, `Reason: …`, blank rows, the options). The shared reader takes the
 *  paragraph above the options alone, so the card's headline was the reason and the host's question
 *  was lost. Read up from it: paragraphs one blank row apart, up to QUESTION_ROWS rows, stopping at
 *  two blank rows, the input history (`›`) or a box's edge; the topmost, if it is Codex's approval
 *  question, is the headline, and the rows between join the dialog's text. */
const QUESTION_ROWS = 8;
/** Words as well as structure here: only Codex's own approval question becomes the headline, never a
 *  line of the model's reply that happens to sit one blank row above the dialog and end with `?`. */
const APPROVAL_QUESTION = /^(?:Do you want|Would you like) to .*\?$/;

function withQuestionAbove(dialog: ScreenDialog, rows: readonly ScreenRow[]): ScreenDialog {
  const lines = rows.map((row) => row.text.trimEnd());
  const first = lines.findIndex((line) => line.trim() === dialog.title);
  if (first < 0) return dialog;
  let top = first;
  for (let row = first - 1; row >= 0 && first - row <= QUESTION_ROWS; row--) {
    const line = lines[row]!;
    if (line.trim() === '') {
      if (row === 0 || lines[row - 1]!.trim() === '') break;
      continue;
    }
    if (line.startsWith(MARKER) || /^\s*[─│╭╮╰╯]/.test(line)) break;
    top = row;
  }
  const question = lines[top]!.trim();
  if (top === first || !APPROVAL_QUESTION.test(question)) return dialog;
  const indent = Math.min(...lines.slice(top, first).filter((line) => line.trim() !== '').map((line) => line.length - line.trimStart().length));
  const above = lines.slice(top, first).map((line) => line.slice(indent));
  return { ...dialog, headline: question, text: [...above, ...dialog.text], signature: JSON.stringify([above, dialog.signature]) };
}

/** Codex draws an option's description in a column of its own after its label. */
const LABEL_AND_DESCRIPTION = /^(\S.*?\S)\s{2,}(\S.*)$/;

/** The dialog with each option's description apart from its label, as its columns draw them. */
function withDescriptions(dialog: ScreenDialog): ScreenDialog {
  const options = dialog.options.map((option) => {
    const split = option.detail === undefined ? LABEL_AND_DESCRIPTION.exec(option.label) : null;
    return split ? { ...option, label: split[1]!, detail: split[2]! } : option;
  });
  return { ...dialog, options };
}

export function readCodexPrompt(options: { rows: readonly ScreenRow[]; seenReady: boolean }): PromptState {
  const input = findCodexInput(options.rows);
  if (!input) return options.seenReady ? { kind: 'dialog' } : { kind: 'starting' };
  const above = options.rows.slice(Math.max(0, input.row - BUSY_ROWS_ABOVE), input.row);
  if (above.some((r) => /esc to interrupt/i.test(r.text))) return { kind: 'busy' };
  return { kind: 'ready', inputEmpty: input.typed.trim() === '' };
}

export const codexScreen = {
  readPrompt: readCodexPrompt,
  readDialog: (rows: readonly ScreenRow[]): ScreenDialog | null => {
    const dialog = readDialog(rows, CODEX_DIALOG_MARKS);
    return dialog ? withQuestionAbove(withDescriptions(dialog), rows) : null;
  },
};
