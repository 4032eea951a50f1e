// read-dialog.ts: "the agent is showing a choice", read from the screen's structure and not from any
// one version's words. What marks the selection, whether a rule tops the dialog and what an input box
// looks like differ per agent (agents/<agent>/ passes them in). claude's choice is:
//
//   ──────────────── (or ▔▔▔▔)   a rule: the dialog's top edge
//    Title                        first line of text
//    …text…
//                                 a blank row
//    ❯ 1. First option            the selection marker on one option; the others share its label
//         its description        column; numbered ("1. Yes") or not (2.1.330's trust dialog); rows
//      2. Second option           indented deeper are the option's detail (a wrapped label's rest
//                                 or a description)
//                                 …at most a few hint rows ("Enter to confirm · Esc to cancel")
//
// and no input box (rule / ❯ prompt / rule) anywhere below: a screen with the input box is never a
// dialog. Observed in claude 2.1.197, 2.1.330 and 2.1.331: folder trust, "New MCP server found",
// "Detected a custom API key", the bypass-permissions warning, "Switch model?". Codex 0.169 draws its
// command approval the same way with `›` and no rule (agents/codex/screen.ts).
import type { ScreenRow } from '../screen/prompt-state.ts';

/** What tells one agent's choices apart from the rest of its screen. */
export type DialogMarks = {
  /** The selection marker in front of the chosen option (claude `❯`, Codex `›`). */
  marker: string;
  /** The agent's input box is on screen: then nothing is a dialog. */
  inputBoxShown: (rows: readonly ScreenRow[]) => boolean;
  /** A rule must top the dialog (claude); otherwise its first text row after a blank one does. */
  rule: boolean;
  /** Text fields the agent draws in its dialogs (Gemini): an option whose label is an empty field
   *  shows its placeholder in the dialog's muted tone (that of its key-hint row); a dialog that is a
   *  field alone draws `prompt` in front of it. A focused field shows a reverse-video cursor. */
  textFields?: { prompt: string };
  /** The question is the paragraph right above the options (Gemini, Codex); claude's is its title,
   *  and what it draws there is a description. */
  questionAboveOptions?: boolean;
  /** A notes field that goes with whichever option is chosen (Codex's questions): offered when the
   *  key hints say so (`offered`), brought up by `key`, drawn under the options as a marker row that
   *  holds the terminal's cursor while it is focused. */
  notes?: { offered: (hints: readonly string[]) => boolean; key: string };
};

/** A text field in a dialog: option `key`'s, a note to the chosen option (`notes`), or the
 *  dialog's only answer. */
export type ScreenTextField = {
  key?: string;
  /** The words go with the option chosen; `focusKey` brings the field up. */
  notes?: { focusKey: string };
  /** The cursor is in it: typed text goes there. */
  focused: boolean;
  /** What is typed in it now ('' while its placeholder shows). */
  typed: string;
  placeholder?: string;
};

export type ScreenDialog = {
  title: string;
  /** The dialog's rows as drawn (common indent removed, the selection marker blanked). */
  text: string[];
  options: Array<{ key: string; label: string; detail?: string }>;
  /** Options carry their digit ("1. Yes"): pressing it chooses at once. */
  numbered: boolean;
  /** Index in `options` of the one under claude's selection marker. */
  cursor: number;
  /** Equal for the same dialog whatever option the marker is on. */
  signature: string;
  /** The question it asks (the rows just above its options), when that is not its title. */
  headline?: string;
  freeText?: ScreenTextField;
  /** Equal for the same question whatever is focused or typed in its text field (its hint row and
   *  the field's own row may change while someone types). */
  identity: string;
  /** The file or command it is about, as the agent's room reads it from its own dialogs. */
  about?: { kind: 'file' | 'command'; text: string };
};

const MIN_RULE_CHARS = 10;
/** Rows under the options (key hints) before the screen's last row; more means it is not a dialog. */
const MAX_HINT_ROWS = 4;
const MAX_OPTIONS = 9;
const MAX_LINES = 60;
const MAX_LINE_CHARS = 400;

const isRule = (line: string) => {
  const trimmed = line.trim();
  return trimmed.length >= MIN_RULE_CHARS && /^[─━═▔]+$/.test(trimmed);
};
const indentOf = (line: string) => line.length - line.trimStart().length;

/** The choice on screen, or null. */
export function readDialog(rows: readonly ScreenRow[], marks: DialogMarks): ScreenDialog | null {
  if (marks.inputBoxShown(rows)) return null;
  const lines = rows.map((row) => row.text.replace(/\u00a0/g, ' ').trimEnd());
  let last = lines.length - 1;
  while (last >= 0 && lines[last]!.trim() === '') last--;
  // The marker sits on the lowest choice; search upward only through the bottom of the screen.
  for (let row = last; row >= 0 && row >= last - MAX_HINT_ROWS - MAX_OPTIONS * 3; row--) {
    const dialog = dialogAt({ rows, lines, cursorRow: row, last, marks });
    if (dialog) return dialog;
  }
  return marks.textFields ? fieldDialog({ rows, lines, last, marks, prompt: marks.textFields.prompt }) : null;
}

/** The row that tops a dialog whose first own row is `first`: a rule, or the blank row above the
 *  block of text just above it. -1 when a rule is required and none is there. */
function topOf(lines: readonly string[], first: number, marks: DialogMarks): number {
  let top = first - 1;
  if (marks.rule) {
    while (top >= 0 && !isRule(lines[top]!)) top--;
    return top;
  }
  // No rule: the dialog is the block of rows above the options, up to a blank row above its text.
  while (top >= 0 && lines[top]!.trim() === '') top--;
  while (top >= 0 && lines[top]!.trim() !== '') top--;
  return top;
}

/** The block of text rows right above row `first` (blank rows between skipped), joined, without the
 *  dialog's title when the block starts with it; a box's edge or wall (a box-drawing character
 *  first) ends it as a blank row does. */
function paragraphAbove(lines: readonly string[], first: number, top: number, title?: string): string {
  const text = (line: string) => line.trim() !== '' && !/^[\u2500-\u257f]/.test(line.trim());
  let row = first - 1;
  while (row > top && lines[row]!.trim() === '') row--;
  const block: string[] = [];
  while (row > top && text(lines[row]!)) block.unshift(lines[row--]!.trim());
  if (block.length > 1 && block[0] === title) block.shift();
  return block.join(' ').slice(0, MAX_LINE_CHARS);
}

/** The colour of a row's last visible character (-1 unknown): how a muted row is told from others. */
function toneOf(row: ScreenRow | undefined): number {
  const text = row?.text.trimEnd() ?? '';
  return text === '' ? -2 : (row?.fg?.[text.length - 1] ?? -2);
}

/** A dialog that is one text field (a text question): `prompt` and a focused field under its text. */
function fieldDialog(o: { rows: readonly ScreenRow[]; lines: readonly string[]; last: number; marks: DialogMarks; prompt: string }): ScreenDialog | null {
  const { rows, lines, last, marks } = o;
  for (let row = last; row >= 0 && row >= last - MAX_HINT_ROWS - 4; row--) {
    const line = lines[row]!;
    const at = line.indexOf(`${o.prompt} `);
    if (at === -1 || line.slice(0, at).trim() !== '' || rows[row]!.cursor === undefined || rows[row]!.cursor! < at) continue;
    const top = topOf(lines, row, marks);
    if (top < 0 && marks.rule) return null;
    const headline = paragraphAbove(lines, row, top);
    if (headline === '') return null;
    const hint = rows[last];
    const field = line.slice(at + o.prompt.length + 1);
    const muted = last !== row && toneOf(rows[row]) === toneOf(hint);
    const body = lines.slice(top + 1, last + 1);
    const text = trimBody(body);
    const title = text[0]!.trim().slice(0, MAX_LINE_CHARS);
    const identity = JSON.stringify([lines.slice(top + 1, row)]);
    return {
      title,
      text,
      options: [],
      numbered: false,
      cursor: -1,
      signature: JSON.stringify([text]),
      ...(headline !== title ? { headline } : {}),
      freeText: { focused: true, typed: muted ? '' : field.trim(), ...(muted && field.trim() ? { placeholder: field.trim().slice(0, MAX_LINE_CHARS) } : {}) },
      identity,
    };
  }
  return null;
}

/** The rows from the first non-blank one, their common indent removed, each capped. */
function trimBody(body: string[]): string[] {
  while (body.length > 0 && body[0]!.trim() === '') body.shift();
  const indent = Math.min(...body.filter((line) => line.trim() !== '').map(indentOf));
  return body.slice(0, MAX_LINES).map((line) => line.slice(indent).slice(0, MAX_LINE_CHARS));
}

function dialogAt(o: { rows: readonly ScreenRow[]; lines: readonly string[]; cursorRow: number; last: number; marks: DialogMarks }): ScreenDialog | null {
  const { rows, lines, cursorRow, last, marks } = o;
  const line = lines[cursorRow]!;
  const at = line.indexOf(marks.marker);
  if (at === -1 || line.slice(0, at).trim() !== '') return null;
  const marked = /^( +)(\S.*)$/.exec(line.slice(at + marks.marker.length));
  if (!marked) return null;
  const labelColumn = lines[cursorRow]!.length - marked[2]!.length;
  const isOption = (line: string) => line.trim() !== '' && indentOf(line) === labelColumn;
  const isMore = (line: string) => line.trim() !== '' && indentOf(line) > labelColumn;
  // Walk up and down from the marker through rows at the label column (options) or deeper (their
  // wrapped text or descriptions); a blank row or a shallower one ends the list.
  let first = cursorRow;
  while (first - 1 >= 0 && (isOption(lines[first - 1]!) || isMore(lines[first - 1]!))) first--;
  while (first < cursorRow && !isOption(lines[first]!)) first++;
  let end = cursorRow;
  while (end + 1 <= last && (isOption(lines[end + 1]!) || isMore(lines[end + 1]!))) end++;
  const optionRows: number[] = [];
  for (let row = first; row <= end; row++) if (row === cursorRow || isOption(lines[row]!)) optionRows.push(row);
  if (optionRows.length < 2 || optionRows.length > MAX_OPTIONS) return null;
  if (lines.slice(end + 1, last + 1).filter((line) => line.trim() !== '').length > MAX_HINT_ROWS) return null;

  const top = topOf(lines, first, marks);
  if (top < 0 && marks.rule) return null;

  const labels = optionRows.map((row) => lines[row]!.slice(labelColumn).trim());
  const details = optionRows.map((row, i) => {
    const below = lines.slice(row + 1, (optionRows[i + 1] ?? end + 1)).map((line) => line.trim());
    return below.filter((line) => line !== '').join(' ');
  });
  const numbers = labels.map((label) => /^(\d)\.\s+(\S.*)$/.exec(label));
  const numbered = numbers.every((match, i) => match !== null && Number(match[1]) === i + 1);
  if (!numbered && numbers.some((match) => match !== null) && numbers[0]?.[1] === '1') return null; // a broken list
  const options = labels.map((label, i) => ({
    key: String(i + 1),
    label: numbered ? numbers[i]![2]!.trim() : label,
    ...(details[i] ? { detail: details[i]!.slice(0, MAX_LINE_CHARS) } : {}),
  }));

  const body = lines.slice(top + 1, last + 1).map((line, i) => (top + 1 + i === cursorRow ? line.replace(marks.marker, ' '.repeat(marks.marker.length)) : line));
  const text = trimBody(body);
  const title = text[0]!.trim().slice(0, MAX_LINE_CHARS);
  const headline = paragraphAbove(lines, first, top, title);
  const field = marks.textFields
    ? textOption({ rows, optionRows, cursorRow, labels, numbered, hint: last > end ? rows[last] : undefined, details })
    : marks.notes
      ? notesField({ rows, lines, end, last, marker: marks.marker, notes: marks.notes })
      : null;
  // The field's row and the key hints change while someone types; the rest is the question.
  const fieldRow = field?.key ? optionRows[Number(field.key) - 1]! : -1;
  const identity = JSON.stringify([lines.slice(top + 1, first), options.map((option, i) => (optionRows[i] === fieldRow ? '' : option.label))]);
  return {
    title,
    text,
    options: options.map((option) => ({ ...option, label: option.label.slice(0, MAX_LINE_CHARS) })),
    numbered,
    cursor: optionRows.indexOf(cursorRow),
    signature: JSON.stringify([text, options]),
    // A title that asks (ends with a question mark: Gemini's folder trust) is the question itself.
    ...(marks.questionAboveOptions && headline !== '' && headline !== title && !/[?？]\s*$/.test(title) ? { headline } : {}),
    ...(field ? { freeText: field } : {}),
    identity,
  };
}

/** The notes field under the options: focused when a marker row there holds the terminal's cursor
 *  (what is typed follows the marker; its placeholder is dim), else offered if the hints say so. */
function notesField(o: { rows: readonly ScreenRow[]; lines: readonly string[]; end: number; last: number; marker: string; notes: NonNullable<DialogMarks['notes']> }): ScreenTextField | null {
  for (let row = o.end + 1; row <= o.last; row++) {
    const at = o.lines[row]!.indexOf(`${o.marker} `);
    if (at === -1 || o.lines[row]!.slice(0, at).trim() !== '' || o.rows[row]!.caret === undefined) continue;
    return { notes: { focusKey: o.notes.key }, focused: true, typed: o.rows[row]!.strong.slice(at + o.marker.length).trim() };
  }
  return o.notes.offered(o.lines.slice(o.end + 1, o.last + 1)) ? { notes: { focusKey: o.notes.key }, focused: false, typed: '' } : null;
}

/** The option that is a text field: the focused one (the cursor on the marker's row), or one whose
 *  label is drawn in the muted tone of the dialog's key hints (an empty field's placeholder). */
function textOption(o: { rows: readonly ScreenRow[]; optionRows: number[]; cursorRow: number; labels: string[]; numbered: boolean; hint: ScreenRow | undefined; details: string[] }): ScreenTextField | null {
  const muted = toneOf(o.hint);
  for (let i = o.optionRows.length - 1; i >= 0; i--) {
    const row = o.rows[o.optionRows[i]!]!;
    const focused = o.optionRows[i] === o.cursorRow && row.cursor !== undefined;
    const placeholder = muted >= -1 && toneOf(row) === muted;
    if (!focused && !placeholder) continue;
    const label = o.numbered ? o.labels[i]!.replace(/^\d\.\s+/, '') : o.labels[i]!;
    const typed = placeholder ? '' : [label, o.details[i] ?? ''].join(' ').trim();
    return { key: String(i + 1), focused, typed, ...(placeholder ? { placeholder: label.trim().slice(0, MAX_LINE_CHARS) } : {}) };
  }
  return null;
}

/** The keys that choose option `key` of `dialog` as it is on screen now: its digit where options are
 *  numbered; otherwise arrows from the marker's option to it, then Enter. Null for no such option. */
export function keysFor(dialog: ScreenDialog, key: string): string | null {
  const index = dialog.options.findIndex((option) => option.key === key);
  if (index === -1) return null;
  if (dialog.numbered) return key;
  const steps = index - dialog.cursor;
  return (steps > 0 ? '\x1b[B' : '\x1b[A').repeat(Math.abs(steps)) + '\r';
}
