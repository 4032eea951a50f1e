// free-text.ts: a person's words typed into a text field a dialog draws (read-dialog.ts `freeText`),
// only while that very question is on screen with that field focused:
//
//   re-read: the same question (identity), the field there ─no─► fail, nothing typed
//   not focused: arrows to its option (never a digit or Enter: those choose) ─► re-read: focused, empty?
//   one bracketed paste of the cleaned text (shared cleanFreeText: no control character, ESC included)
//   re-read until the field shows exactly that text ─no─► fail, Enter not pressed
//   Enter
//
// Invariant: Enter is pressed only after the screen showed the question unchanged with the text in
// its field; anything else ends the attempt with the reason, for the person.
import { cleanFreeText } from '@tether/shared';
import type { ScreenDialog } from './read-dialog.ts';

/** How long a redraw may take to show a key's effect (focus, the pasted text). */
const SHOWN_WITHIN_MS = 2_000;
const POLL_MS = 50;

export type FreeTextResult = { ok: true } | { ok: false; reason: string; typed: boolean };

const squash = (text: string) => text.replace(/\s+/g, '');

export async function typeFreeText(o: {
  was: ScreenDialog;
  text: string;
  read: () => Promise<ScreenDialog | null>;
  write: (keys: string) => void;
  shownWithinMs?: number;
}): Promise<FreeTextResult> {
  const key = o.was.freeText?.key;
  const sameQuestion = (now: ScreenDialog | null): now is ScreenDialog & { freeText: NonNullable<ScreenDialog['freeText']> } =>
    now !== null && now.identity === o.was.identity && now.freeText !== undefined && now.freeText.key === key;
  const waitFor = async (done: (now: ScreenDialog | null) => boolean): Promise<ScreenDialog | null> => {
    const until = Date.now() + (o.shownWithinMs ?? SHOWN_WITHIN_MS);
    for (;;) {
      const now = await o.read();
      if (done(now) || Date.now() > until) return now;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  let now = await o.read();
  if (!sameQuestion(now)) return { ok: false, typed: false, reason: 'the dialog changed on screen before the answer was typed; nothing was typed' };
  if (!now.freeText.focused) {
    const index = now.options.findIndex((option) => option.key === key);
    const steps = index - now.cursor;
    o.write((steps > 0 ? '\x1b[B' : '\x1b[A').repeat(Math.abs(steps)));
    now = await waitFor((d) => sameQuestion(d) && d.freeText.focused);
    if (!sameQuestion(now) || !now.freeText.focused) return { ok: false, typed: false, reason: 'its text field did not take the cursor; nothing was typed' };
  }
  if (now.freeText.typed !== '') return { ok: false, typed: false, reason: 'its text field already holds text typed at the desk; nothing was typed' };
  const text = cleanFreeText(o.text);
  o.write(`\x1b[200~${text}\x1b[201~`);
  const shown = await waitFor((d) => sameQuestion(d) && d.freeText.focused && squash(d.freeText.typed) === squash(text));
  if (!sameQuestion(shown) || squash(shown.freeText.typed) !== squash(text)) {
    return { ok: false, typed: true, reason: 'the field did not show the answer as sent; it was typed but Enter was not pressed' };
  }
  o.write('\r');
  return { ok: true };
}
