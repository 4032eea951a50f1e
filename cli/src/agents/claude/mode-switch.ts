// mode-switch.ts: switching claude's permission mode the way the desk does, by Shift+Tab, until the
// footer shows the mode asked for. claude owns the cycle (which modes it has, and bypass only when
// the session was started allowing it), so a mode it never shows is reported as unreachable.
import type { PermissionMode } from '@tether/shared';
import type { ScreenModel } from '../../screen/screen.ts';
import { findInputBox } from './prompt-state.ts';
import { modeFromFooter } from './footer-mode.ts';

const SHIFT_TAB = '\x1b[Z';
/** More than claude's cycle has modes (6), so every mode it offers is reached. */
const MAX_PRESSES = 7;
/** How long claude may take to redraw its footer after a press. */
const PRESS_SETTLE_MS = 3_000;
/** Presses claude may ignore (a key dropped while it redraws) on top of the cycle's length. */
const MAX_UNANSWERED_PRESSES = 3;
const POLL_MS = 60;

/** The mode the screen's input box footer shows, or null while no input box is drawn (a dialog). */
export async function footerMode(screen: Pick<ScreenModel, 'state'>): Promise<PermissionMode | null> {
  const state = await screen.state();
  const box = findInputBox(state.lines);
  return box ? modeFromFooter(box.footer) : null;
}

export async function switchMode(options: {
  target: PermissionMode;
  screen: Pick<ScreenModel, 'state'>;
  write: (data: string) => void;
  signal?: AbortSignal;
  /** How long to wait for claude's footer after a press (tests shorten it). */
  settleMs?: number;
}): Promise<{ ok: true } | { ok: false; reason: string }> {
  let current = await footerMode(options.screen);
  const start = current;
  // Only a footer that really moved and came back means the cycle lacks the target: on a loaded
  // machine claude can redraw later than PRESS_SETTLE_MS (or drop a key), and an unchanged footer
  // then is no proof that the cycle went round.
  let moved = false;
  for (let press = 0; press <= MAX_PRESSES + MAX_UNANSWERED_PRESSES; press++) {
    if (options.signal?.aborted) return { ok: false, reason: 'the session ended' };
    if (current === options.target) return { ok: true };
    if (current === null) return { ok: false, reason: 'claude shows a dialog, not its input box' };
    if (moved && current === start) return { ok: false, reason: `claude's Shift+Tab cycle has no ${options.target} mode in this session` };
    const before = current;
    options.write(SHIFT_TAB);
    const deadline = Date.now() + (options.settleMs ?? PRESS_SETTLE_MS);
    do {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await footerMode(options.screen);
    } while (current === before && Date.now() < deadline);
    if (current !== before) moved = true;
  }
  return { ok: false, reason: `claude's footer never showed ${options.target}` };
}
