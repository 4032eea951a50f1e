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
    const dialog = dialogAt(lines, row, last, marks);
    if (dialog) return dialog;
  }
  return null;
}

function dialogAt(lines: readonly string[], cursorRow: number, last: number, marks: DialogMarks): ScreenDialog | null {
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

  let top = first - 1;
  if (marks.rule) {
    while (top >= 0 && !isRule(lines[top]!)) top--;
    if (top < 0) return null;
  } else {
    // No rule: the dialog is the block of rows above the options, up to a blank row above its text.
    while (top >= 0 && lines[top]!.trim() === '') top--;
    while (top >= 0 && lines[top]!.trim() !== '') top--;
  }

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
  while (body.length > 0 && body[0]!.trim() === '') body.shift();
  const indent = Math.min(...body.filter((line) => line.trim() !== '').map(indentOf));
  const text = body.slice(0, MAX_LINES).map((line) => line.slice(indent).slice(0, MAX_LINE_CHARS));
  const title = text[0]!.trim().slice(0, MAX_LINE_CHARS);
  return {
    title,
    text,
    options: options.map((option) => ({ ...option, label: option.label.slice(0, MAX_LINE_CHARS) })),
    numbered,
    cursor: optionRows.indexOf(cursorRow),
    signature: JSON.stringify([text, options]),
  };
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
