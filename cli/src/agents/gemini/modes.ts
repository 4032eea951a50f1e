// modes.ts: a PTY Gemini's mode switched from the phone. The mode is tether's gate's policy (gate.ts),
// so a switch is the runner's to record, not keys to Gemini: Gemini stays in yolo, and only when the
// desk took it out of yolo (its own policy would ask again after the gate) is it put back with its
// own key, Ctrl+Y, which from any other mode goes to yolo (0.58.0 and 0.61.0 alike).
import type { PermissionMode } from '@tether/shared';
import type { ScreenModel } from '../../screen/screen.ts';
import { geminiOwnMode, geminiScreen } from './screen.ts';

const CTRL_Y = '\x19';
/** How long Gemini may take to redraw its mode row after the key. */
const SETTLE_MS = 3_000;
const POLL_MS = 60;

const ownMode = async (screen: Pick<ScreenModel, 'state'>) => geminiOwnMode((await screen.state()).lines);
type OwnMode = Awaited<ReturnType<typeof ownMode>>;

/** Reads the mode row again every POLL_MS until `done` holds or `ms` pass; the last read. */
async function readUntil(o: { screen: Pick<ScreenModel, 'state'>; first: OwnMode; done: (own: OwnMode) => boolean; ms: number }): Promise<OwnMode> {
  let own = o.first;
  const deadline = Date.now() + o.ms;
  while (!o.done(own) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    own = await ownMode(o.screen);
  }
  return own;
}

export const geminiModes = {
  async switchTo(o: { target: PermissionMode; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void; settleMs?: number }): Promise<{ ok: true; mode: PermissionMode } | { ok: false; reason: string }> {
    const settleMs = o.settleMs ?? SETTLE_MS;
    // A frame without the row may be Gemini mid-redraw (a desk key just drawn; a floor rehearsal took
    // it for "not shown" and left Gemini in its own auto-accept edits): look again for a moment.
    let own = await readUntil({ screen: o.screen, first: await ownMode(o.screen), done: (seen) => seen !== null, ms: settleMs });
    // Still not shown (a dialog is drawn): the gate takes the mode now; the row is read again at the
    // next idle prompt, where a desk mode would be followed.
    if (own === null || own === 'yolo') return { ok: true, mode: o.target };
    o.write(CTRL_Y);
    own = await readUntil({ screen: o.screen, first: own, done: (seen) => seen === 'yolo', ms: settleMs });
    // Left in its own mode it would ask again after each allow, and its row would be read back over
    // the phone's choice: the switch did not take.
    if (own !== 'yolo') return { ok: false, reason: `Gemini stayed in its own ${own ?? 'unknown'} mode after Ctrl+Y (is yolo disabled in its settings?)` };
    return { ok: true, mode: o.target };
  },
  /** The screen names only a mode the desk chose; the gate's own is the session's, kept by the runner. */
  current: async (screen: Pick<ScreenModel, 'state'>): Promise<PermissionMode | null> => geminiScreen.footerMode((await screen.state()).lines),
};
