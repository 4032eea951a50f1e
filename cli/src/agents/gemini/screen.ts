// screen.ts: how Gemini CLI's TUI is read from its rendered screen (0.58.0 and 0.61.0, at 110×35;
// fixtures in screen-fixtures/). At the bottom of the screen:
//
//    ⠦ Thinking... (esc to cancel, 9s)        ? for shortcuts     while a turn runs: a spinner row
//   ──────────────────────────────────────────────────────────     a rule
//    YOLO Ctrl+Y                                                   the mode row
//                                                                  (blank)
//    *   Type your message or @path/to/file                       the input row: a one-character mark
//                                                                  (`>`, `*` in yolo), then what is
//                                                                  typed; empty, its cursor cell and
//                                                                  a grey placeholder after 3 spaces
//                                                                  (blank)
//    workspace (/directory)      sandbox           /model          footer rows
//
// A tool-permission dialog replaces the rule, the input and the footer: a box (`╭│╰`) holding the
// call, a question, a blank row and numbered options with `●` on the chosen one. It is read by the
// shared dialog reader once the box's side walls are taken off. Structure first: busy is a braille
// spinner at the start of a row above the rule (Gemini also draws "esc to cancel" there), or a hook
// running between turns (its label alone there: SessionStart).
import { readDialog, type DialogMarks, type ScreenDialog } from '../../dialogs/read-dialog.ts';
import type { PermissionMode } from '@tether/shared';
import type { PromptState, ScreenRow } from '../../screen/prompt-state.ts';

const MIN_RULE_CHARS = 20;
/** Rows between the rule and the input row (the mode row and a blank one, or none). */
const MAX_ROWS_TO_INPUT = 3;
/** Rows above the rule the spinner may sit on (a queued prompt can be drawn under it). */
const BUSY_ROWS_ABOVE = 2;
const SPINNER = /^\s*[\u2800-\u28ff]\s/;
/** A hook running outside a turn (SessionStart): its row above the rule has no spinner, only its
 *  label (seen on 0.61.0 at start: "  Executing Hook: tether session-start … ? for shortcuts"), and
 *  Gemini drops what is typed meanwhile. */
const HOOK_RUNNING = /^\s*Executing Hooks?:/;
const INPUT = /^ ?(\S) /;

const isRule = (text: string) => {
  const trimmed = text.trim();
  return trimmed.length >= MIN_RULE_CHARS && /^─+$/.test(trimmed);
};

/** The input row under the lowest rule, and what is typed in it. Null while none is drawn (starting,
 *  or a dialog is up). */
export function findGeminiInput(rows: readonly ScreenRow[]): { rule: number; row: number; typed: string } | null {
  let rule = rows.length - 1;
  while (rule >= 0 && !isRule(rows[rule]!.text)) rule--;
  if (rule < 0) return null;
  for (let row = rule + 1; row < rows.length && row <= rule + MAX_ROWS_TO_INPUT + 1; row++) {
    const text = rows[row]!.text;
    const mark = INPUT.exec(text);
    // The mode row ("YOLO Ctrl+Y", "Shift+Tab to accept edits") starts with a word, not one mark.
    if (!mark || /\w/.test(mark[1]!)) continue;
    // Empty, it draws its cursor as a reversed blank cell between spaces, then the placeholder (not
    // dim: a grey): two spaces after the mark. Typed text starts right after one.
    const first = rows[row]!.strong.slice(mark[0].length);
    if (/^ {2}/.test(first)) return { rule, row, typed: '' };
    const typed = [first];
    // A long input wraps onto rows indented like its first.
    for (let below = row + 1; below < rows.length && below <= row + 8 && /^ {3,}\S/.test(rows[below]!.strong); below++) typed.push(rows[below]!.strong);
    return { rule, row, typed: typed.join('\n').trim() };
  }
  return null;
}

export function readGeminiPrompt(options: { rows: readonly ScreenRow[]; seenReady: boolean }): PromptState {
  const input = findGeminiInput(options.rows);
  if (!input) return options.seenReady ? { kind: 'dialog' } : { kind: 'starting' };
  const above = options.rows.slice(Math.max(0, input.rule - BUSY_ROWS_ABOVE), input.rule);
  if (above.some((r) => SPINNER.test(r.text) || HOOK_RUNNING.test(r.text))) return { kind: 'busy' };
  return { kind: 'ready', inputEmpty: input.typed === '' };
}

/** The rows with a box's side walls taken off (one level: the dialog's own box), its top edge a
 *  rule and its bottom edge blank: what the shared reader expects. */
export function unboxed(rows: readonly ScreenRow[]): ScreenRow[] {
  return rows.map(unboxedRow);
}

const WALLED = /^(\s*)(│ ?)(.*?) ?│\s*$/;

function unboxedRow(row: ScreenRow): ScreenRow {
  // The box's top edge becomes a rule (the dialog's top, as claude's rule is), its bottom a blank row.
  if (/^\s*╭/.test(row.text)) return { text: '─'.repeat(row.text.trim().length), strong: '─'.repeat(row.text.trim().length) };
  if (/^\s*╰/.test(row.text)) return { text: '', strong: '' };
  const walled = WALLED.exec(row.text);
  if (!walled) return row;
  const [, lead, wall, inner] = walled as unknown as [string, string, string, string];
  const from = lead.length + wall.length;
  const strong = WALLED.exec(row.strong);
  // The wall comes off the front: the cursor's index and the colours move with the text.
  const cursor = row.cursor !== undefined && row.cursor >= from && row.cursor <= from + inner.length ? row.cursor - wall.length : undefined;
  return {
    text: `${lead}${inner}`,
    strong: strong ? `${strong[1]}${strong[3]}` : row.strong,
    ...(row.fg ? { fg: [...row.fg.slice(0, lead.length), ...row.fg.slice(from, from + inner.length)] } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

export const GEMINI_DIALOG_MARKS: DialogMarks = {
  marker: '●',
  inputBoxShown: (rows) => findGeminiInput(rows) !== null,
  rule: true,
  // Its questions (ask_user): "Enter a custom value" is an option that is a text field; a text
  // question is a field alone behind `>`.
  textFields: { prompt: '>' },
  questionAboveOptions: true,
};

/** What a tool dialog is about. Its first row is the call (`? <Tool>  <what it does>`) and a box
 *  under it shows the call's content: a command is shown whole in both (the box holds one row, the
 *  call's row ends with it); a file the call names is the last word of its row when the box holds
 *  the file's content (a write's, an edit's diff). Nothing for a dialog that is not a call. */
export function geminiDialogAbout(text: readonly string[]): ScreenDialog['about'] {
  const call = /^\S\s+\S+\s{2,}(\S.*)$/.exec(text[0]?.trim() ?? '');
  if (!call || text[1]?.trim().startsWith('╭') !== true) return undefined;
  const end = text.findIndex((line, i) => i > 1 && line.trim().startsWith('╰'));
  if (end === -1) return undefined;
  const inner = text.slice(2, end).map((line) => /^\s*│ ?(.*?) ?│\s*$/.exec(line)?.[1]?.trim() ?? '');
  const what = call[1]!.trim();
  if (inner.length === 1 && what.endsWith(inner[0]!) && inner[0] !== '') return { kind: 'command', text: inner[0]! };
  const path = /(\S+\.\S+|\/\S+)$/.exec(what)?.[1];
  return path ? { kind: 'file', text: path } : undefined;
}

/** Gemini's approval mode as its mode row (between the rule and the input) names it: its own words
 *  first ("YOLO", "auto-accept edits", "plan"), then the key hint; default mode draws the hint
 *  alone ("Shift+Tab to accept edits"). Null when no input is drawn or the row names none of them. */
export function geminiOwnMode(rows: readonly ScreenRow[]): 'yolo' | 'default' | 'auto_edit' | 'plan' | null {
  const input = findGeminiInput(rows);
  if (!input) return null;
  const row = rows.slice(input.rule + 1, input.row).find((r) => r.text.trim() !== '');
  const text = row?.text.trim() ?? '';
  if (/^YOLO\b/.test(text)) return 'yolo';
  if (/^auto-accept edits\b/.test(text)) return 'auto_edit';
  if (/^plan\b/.test(text)) return 'plan';
  // The hint alone: a key, "to", and the mode the key goes to.
  if (/^\S+ to accept edits$/.test(text)) return 'default';
  return null;
}

/** The desk's mode in tether's words; yolo is tether's own (the gate is the mode), never read back. */
const DESK_MODES = { default: 'default', auto_edit: 'acceptEdits', plan: 'plan' } as const;

const MARK_COLUMN = /^[^\w\s]\s+(?=\S)/;

export const geminiScreen = {
  readPrompt: readGeminiPrompt,
  footerMode: (rows: readonly ScreenRow[]): PermissionMode | null => {
    const own = geminiOwnMode(rows);
    return own && own !== 'yolo' ? DESK_MODES[own] : null;
  },
  ownPolicyAsks: (rows: readonly ScreenRow[]): boolean | null => {
    const own = geminiOwnMode(rows);
    return own === null ? null : own !== 'yolo';
  },
  readDialog: (rows: readonly ScreenRow[]): ScreenDialog | null => {
    // The input is looked for as drawn: unboxed, a dialog's top edge is a rule over its call's row.
    if (GEMINI_DIALOG_MARKS.inputBoxShown(rows)) return null;
    const dialog = readDialog(unboxed(rows), { ...GEMINI_DIALOG_MARKS, inputBoxShown: () => false });
    if (!dialog) return null;
    const about = geminiDialogAbout(dialog.text);
    // Its title row starts with a one-character mark in a column of its own ("?  A potential loop was
    // detected", "?  Shell …"): the words are the title.
    const title = dialog.title.replace(MARK_COLUMN, '');
    return { ...dialog, title, ...(about ? { about } : {}) };
  },
};
