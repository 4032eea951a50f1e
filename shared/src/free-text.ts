// free-text.ts: a person's own words typed into a text field an agent draws on its screen (Gemini's
// "Enter a custom value" and its text questions, Codex's notes field, claude's "Other"). The runner
// types them as one bracketed paste, so what reaches the field is plain text: no control character
// (ESC included) can end the paste early or press a key of its own.
import type { AgentKind } from './agent-terms.ts';

/** The protocol's cap on any free-text answer, whatever the agent. */
export const MAX_FREE_TEXT_CHARS = 4000;

/** How many characters each agent's on-screen field is given. The runner reads the field back on
 *  screen before it presses Enter, so the whole answer must be drawn at once: a field that wraps
 *  inside a dialog box (Gemini's, claude's) gets what fits a 35-row screen at 80 columns with room
 *  for the dialog's own rows; Codex's notes field is one composer line that scrolls, so less.
 *  opencode types into no field on a screen (its questions never reach the phone): its cap is the protocol's. */
export const FREE_TEXT_MAX_CHARS: Record<AgentKind, number> = { claude: 600, codex: 300, gemini: 600, opencode: MAX_FREE_TEXT_CHARS };

/** The answer as it is typed: line breaks and tabs become spaces, every other control character
 *  (C0 with ESC, DEL, C1) is dropped, and the ends are trimmed. */
export function cleanFreeText(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
}
