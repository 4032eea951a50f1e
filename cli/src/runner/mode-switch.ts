// mode-switch.ts: switching claude's permission mode the way the desk does, by Shift+Tab, until the
// footer shows the mode asked for. claude owns the cycle (which modes it has, and bypass only when
// the session was started allowing it), so a mode it never shows is reported as unreachable.
import type { PermissionMode } from '@tether/shared';
import type { ScreenModel } from '../screen/screen.ts';
import { findInputBox } from '../screen/prompt-state.ts';
import { modeFromFooter } from '../screen/footer-mode.ts';

const SHIFT_TAB = '\x1b[Z';
/** More than claude's cycle has modes (6), so every mode it offers is reached. */
const MAX_PRESSES = 7;
/** How long claude may take to redraw its footer after a press. */
const PRESS_SETTLE_MS = 1_500;
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
}): Promise<{ ok: true } | { ok: false; reason: string }> {
  let current = await footerMode(options.screen);
  const start = current;
  for (let press = 0; press <= MAX_PRESSES; press++) {
    if (options.signal?.aborted) return { ok: false, reason: 'the session ended' };
    if (current === options.target) return { ok: true };
    if (current === null) return { ok: false, reason: 'claude shows a dialog, not its input box' };
    // Back where it started: the cycle does not contain the target.
    if (press > 0 && current === start) return { ok: false, reason: `claude's Shift+Tab cycle has no ${options.target} mode in this session` };
    const before = current;
    options.write(SHIFT_TAB);
    const deadline = Date.now() + PRESS_SETTLE_MS;
    do {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await footerMode(options.screen);
    } while (current === before && Date.now() < deadline);
  }
  return { ok: false, reason: `claude's footer never showed ${options.target}` };
}
