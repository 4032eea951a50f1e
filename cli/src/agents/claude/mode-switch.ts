// mode-switch.ts: switching claude's permission mode the way the desk does, by Shift+Tab, until the
// footer shows the mode asked for (agents/mode-cycle.ts). claude owns the cycle (which modes it has,
// and bypass only when the session was started allowing it).
import type { PermissionMode } from '@tether/shared';
import type { ScreenModel } from '../../screen/screen.ts';
import { findInputBox } from './prompt-state.ts';
import { modeFromFooter } from './footer-mode.ts';
import { cycleToMode } from '../mode-cycle.ts';

const SHIFT_TAB = { bytes: '\x1b[Z', name: 'Shift+Tab' };
/** More than claude's cycle has modes (6), so every mode it offers is reached. */
const MAX_PRESSES = 7;
/** How long claude may take to redraw its footer after a press. */
const PRESS_SETTLE_MS = 3_000;

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
  const read = async () => {
    const mode = await footerMode(options.screen);
    return mode ? { stop: mode, mode } : null;
  };
  return cycleToMode({
    target: options.target,
    read,
    write: options.write,
    key: SHIFT_TAB,
    agent: 'claude',
    shownIn: 'footer',
    maxPresses: MAX_PRESSES,
    settleMs: options.settleMs ?? PRESS_SETTLE_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}
