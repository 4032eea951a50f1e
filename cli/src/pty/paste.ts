// paste.ts: how text is typed into a TUI that has bracketed paste on (claude emits ESC[?2004h).
// One paste = one prompt, whatever newlines it holds; Enter is sent separately after a short gap,
// because a `\r` glued to the paste can be taken as part of it.

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** The paste body with any paste markers inside the text removed, so text can't end the paste early. */
export function bracketedPaste(text: string): string {
  const clean = text.replaceAll(PASTE_START, '').replaceAll(PASTE_END, '').replace(/\r\n?/g, '\n');
  return `${PASTE_START}${clean}${PASTE_END}`;
}

/** Enter. */
export const SUBMIT = '\r';
/** Escape: interrupts claude's turn. */
export const ESCAPE = '\x1b';
