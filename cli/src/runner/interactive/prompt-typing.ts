// prompt-typing.ts: how a queued prompt gets into claude's input box. The gate says when: only with
// claude's turn idle and the box ready and EMPTY (text there is the desk typing, never ours to
// mix with). The paste writer types it: a bracketed paste, then Enter only once the box shows the
// text, so claude never submits an empty or half-drawn box.
import type { PromptState } from '../../screen/prompt-state.ts';
import { bracketedPaste, SUBMIT } from '../../pty/paste.ts';

/** Pause between the paste and Enter: claude must have taken the paste in first (CLAUDE-CODE.md §6:
 *  ~300 ms was reliable for typed text; the screen check below makes a shorter gap safe). */
export const PASTE_SETTLE_MS = 150;
/** How often the gate is re-checked while something waits (screen changes also trigger a check). */
export const RECHECK_MS = 100;

/** What the head of the queue does on this screen: `done` (a submitted command is over), `wait`,
 *  `desk-typing` (the box holds someone's text) or `type`. */
export type Gate = 'done' | 'wait' | 'desk-typing' | 'type';

export function gateFor(o: { submitted: boolean; screen: PromptState; turnIdle: () => boolean }): Gate {
  // A submitted command is done when the screen is ready again (a prompt waits for its transcript line).
  if (o.submitted) return o.screen.kind === 'ready' ? 'done' : 'wait';
  if (o.screen.kind !== 'ready' || !o.turnIdle()) return 'wait';
  if (!o.screen.inputEmpty) return 'desk-typing';
  return 'type';
}

/** Pastes `text` and presses Enter once the box shows it; false when `current()` turned false
 *  first (the queue moved on or stopped): then Enter is never pressed. `attach`: pasted first, each
 *  alone (an agent whose composer attaches a pasted image path: Agent.ptyImages). */
export async function pasteAndSubmit(o: {
  text: string;
  attach?: readonly string[];
  write: (data: string) => void;
  screen: () => PromptState | Promise<PromptState>;
  settleMs: number;
  current: () => boolean;
}): Promise<boolean> {
  for (const piece of [...(o.attach ?? []), o.text]) {
    if (piece === '' || !o.current()) continue;
    o.write(bracketedPaste(piece));
    await new Promise((resolve) => setTimeout(resolve, o.settleMs));
  }
  // Enter only once the paste is in the box; the box can take a moment to redraw.
  for (;;) {
    if (!o.current()) return false;
    const screen = await o.screen();
    if (!o.current()) continue;
    if (screen.kind === 'ready' && !screen.inputEmpty) break;
    await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
  }
  o.write(SUBMIT);
  return true;
}
