// modes.ts: a PTY opencode's mode switched from the phone the way its desk does: its TUI's Tab moves
// to its next primary agent (build, plan, and any of the person's own), named on its input box's last
// row (screen.ts); pressed until that row names the agent of the mode asked for (agents/mode-cycle.ts).
// Its TUI holds the agent (each prompt carries it), so the desk sees the switch as if made there.
import type { PermissionMode } from '@tether/shared';
import type { ScreenModel } from '../../screen/screen.ts';
import { cycleToMode } from '../mode-cycle.ts';
import { OPENCODE_MODES } from './launch.ts';
import { opencodeAgentShown, opencodeModeOf } from './screen.ts';

const TAB = { bytes: '\t', name: 'Tab' };
/** More than its Tab cycle has agents by default (2), with room for a few of the person's own. */
const MAX_PRESSES = 8;
/** How long its TUI may take to redraw the agent row after a press. */
const PRESS_SETTLE_MS = 3_000;

const shown = async (screen: Pick<ScreenModel, 'state'>) => opencodeAgentShown((await screen.state()).lines);

export const opencodeModes = {
  switchTo: async (o: { target: PermissionMode; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void; settleMs?: number }) => {
    if (!OPENCODE_MODES[o.target]) return { ok: false as const, reason: `opencode has no agent for the ${o.target} mode (it has build and plan)` };
    const read = async () => {
      const agent = await shown(o.screen);
      return agent === null ? null : { stop: agent, mode: opencodeModeOf(agent) };
    };
    return cycleToMode({ target: o.target, read, write: o.write, key: TAB, agent: 'opencode', shownIn: 'input box', maxPresses: MAX_PRESSES, settleMs: o.settleMs ?? PRESS_SETTLE_MS });
  },
  current: async (screen: Pick<ScreenModel, 'state'>) => opencodeModeOf(await shown(screen)),
};
