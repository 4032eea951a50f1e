// free-text.ts: a person's words typed into a text field a dialog draws (read-dialog.ts `freeText`),
// only while that very question is on screen with that field focused:
//
//   re-read: the same question (identity), the field there ─no─► fail, nothing typed
//   the option the words go with (the field's own, or a note's chosen one) not under the marker:
//       arrows to it (never a digit or Enter: those choose) ─► re-read
//   a note's field not up: its focus key (Codex: Tab) ─► re-read: focused and empty?
//   one bracketed paste of the cleaned text (shared cleanFreeText: no control character, ESC included)
//   re-read until the field shows exactly that text, the marker still on that option ─no─► fail,
//       Enter not pressed
//   wait enterAfterMs, re-read: still so ─no─► fail, Enter not pressed
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

type WithField = ScreenDialog & { freeText: NonNullable<ScreenDialog['freeText']> };

const squash = (text: string) => text.replace(/\s+/g, '');
const failed = (reason: string, typed = false): FreeTextResult => ({ ok: false, typed, reason });

export async function typeFreeText(o: {
  was: ScreenDialog;
  text: string;
  /** The option the words go with (a note's chosen option, or the field's own). */
  choice?: string | undefined;
  read: () => Promise<ScreenDialog | null>;
  write: (keys: string) => void;
  shownWithinMs?: number;
  /** How long after the screen showed the text Enter waits (the agent's paste settle: Gemini takes
   *  an Enter within 30 ms of the key before it as a newline). The agent drew the text only after it
   *  took the paste, so waiting from that sight puts at least this much between the two keys. */
  enterAfterMs?: number;
}): Promise<FreeTextResult> {
  const field = o.was.freeText;
  const sameQuestion = (now: ScreenDialog | null): now is WithField =>
    now !== null && now.identity === o.was.identity && now.freeText !== undefined && now.freeText.key === field?.key && !!now.freeText.notes === !!field?.notes;
  const target = o.choice === undefined ? -1 : o.was.options.findIndex((option) => option.key === o.choice);
  const onTarget = (now: WithField) => target === -1 || now.cursor === target;
  const waitFor = async (done: (now: WithField) => boolean): Promise<ScreenDialog | null> => {
    const until = Date.now() + (o.shownWithinMs ?? SHOWN_WITHIN_MS);
    for (;;) {
      const now = await o.read();
      if ((sameQuestion(now) && done(now)) || Date.now() > until) return now;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };

  let now = await o.read();
  if (!sameQuestion(now)) return failed('the dialog changed on screen before the answer was typed; nothing was typed');
  if (!onTarget(now) || (!now.freeText.focused && !now.freeText.notes)) {
    const steps = target - now.cursor;
    o.write((steps > 0 ? '\x1b[B' : '\x1b[A').repeat(Math.abs(steps)));
    now = await waitFor((d) => onTarget(d) && (d.freeText.focused || !!d.freeText.notes));
    if (!sameQuestion(now) || !onTarget(now)) return failed('the marker did not reach the option the answer goes with; nothing was typed');
  }
  if (!now.freeText.focused && now.freeText.notes) {
    o.write(now.freeText.notes.focusKey);
    now = await waitFor((d) => d.freeText.focused && onTarget(d));
  }
  if (!sameQuestion(now) || !now.freeText.focused || !onTarget(now)) return failed('its text field did not take the cursor; nothing was typed');
  if (now.freeText.typed !== '') return failed('its text field already holds text typed at the desk; nothing was typed');
  const text = cleanFreeText(o.text);
  o.write(`\x1b[200~${text}\x1b[201~`);
  const shown = await waitFor((d) => d.freeText.focused && onTarget(d) && squash(d.freeText.typed) === squash(text));
  const holdsIt = (now: ScreenDialog | null) => sameQuestion(now) && onTarget(now) && squash(now.freeText.typed) === squash(text);
  if (!holdsIt(shown)) return failed('the field did not show the answer as sent; it was typed but Enter was not pressed', true);
  if (o.enterAfterMs) {
    await new Promise((resolve) => setTimeout(resolve, o.enterAfterMs));
    if (!holdsIt(await o.read())) return failed('the dialog changed after the answer was typed; Enter was not pressed', true);
  }
  o.write('\r');
  return { ok: true };
}
