// screen.ts: how claude's TUI is read from its rendered screen: its input box and busy footer
// (prompt-state.ts), its choices (a rule on top, `❯` on the chosen option), its effort and mode in
// the footer, and the line it draws after Ctrl-Z. Structure first; where words are read, every
// supported version's are listed.
import { readDialog, type DialogMarks, type ScreenDialog } from '../../dialogs/read-dialog.ts';
import type { ScreenRow } from '../../screen/prompt-state.ts';
import { findInputBox, readPromptState } from './prompt-state.ts';
import { modeFromFooter } from './footer-mode.ts';

export const CLAUDE_DIALOG_MARKS: DialogMarks = {
  marker: '❯',
  inputBoxShown: (rows) => findInputBox(rows) !== null,
  rule: true,
};

/** claude's effort in its footer, in 2.1.197 and 2.1.330 alike: `● high · /effort`, `◐ medium · /effort`. */
const EFFORT_FOOTER = /\b(low|medium|high|xhigh|max) · \/effort\b/;
/** What claude draws after Ctrl-Z: 2.1.197 "Claude Code has been suspended", 2.1.330 "Claude Code is
 *  suspended. Run `fg` to bring it back." */
const CLAUDE_SUSPENDED = /Claude Code (?:has been|is) suspended/;

export const claudeScreen = {
  readPrompt: readPromptState,
  readDialog: (rows: readonly ScreenRow[]): ScreenDialog | null => readDialog(rows, CLAUDE_DIALOG_MARKS),
  effort: (text: string): string | undefined => EFFORT_FOOTER.exec(text)?.[1],
  suspended: (text: string): boolean => CLAUDE_SUSPENDED.test(text),
  /** The permission mode the footer under an idle, empty input box names (null: default). */
  footerMode: (rows: readonly ScreenRow[]) => {
    const box = findInputBox(rows);
    return box && box.footer.length > 0 ? modeFromFooter(box.footer) : null;
  },
};
