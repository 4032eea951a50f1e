// mode-cycle.ts: switching a PTY agent's mode the way its desk does, one key at a time, reading its
// screen between presses until it shows the mode asked for (claude: Shift+Tab through the modes its
// footer names; opencode: Tab through its agents, named on its input box's last row). The agent owns
// the cycle (which stops it has), so a mode it never shows is reported as unreachable.
import type { PermissionMode } from '@tether/shared';

const POLL_MS = 60;
/** Presses the agent may ignore (a key dropped while it redraws) on top of the cycle's length. */
const MAX_UNANSWERED_PRESSES = 3;

/** Where the cycle stands: its stop as drawn (an agent's own stop may be no mode tether has), or
 *  null while no input box is drawn (a dialog). */
export type CycleStop = { stop: string; mode: PermissionMode | null } | null;

export async function cycleToMode(o: {
  target: PermissionMode;
  read: () => Promise<CycleStop>;
  write: (data: string) => void;
  key: { bytes: string; name: string };
  /** Who and where, for the reasons: "claude", "footer". */
  agent: string;
  shownIn: string;
  /** More than the cycle has stops, so every stop is reached. */
  maxPresses: number;
  /** How long the agent may take to redraw after a press. */
  settleMs: number;
  signal?: AbortSignal;
}): Promise<{ ok: true } | { ok: false; reason: string }> {
  let current = await o.read();
  const start = current?.stop;
  // Only a stop that really moved and came back means the cycle lacks the target: on a loaded
  // machine the agent can redraw later than settleMs (or drop a key), and an unchanged stop then is
  // no proof that the cycle went round.
  let moved = false;
  for (let press = 0; press <= o.maxPresses + MAX_UNANSWERED_PRESSES; press++) {
    if (o.signal?.aborted) return { ok: false, reason: 'the session ended' };
    if (current === null) return { ok: false, reason: `${o.agent} shows a dialog, not its input box` };
    if (current.mode === o.target) return { ok: true };
    if (moved && current.stop === start) return { ok: false, reason: `${o.agent}'s ${o.key.name} cycle has no ${o.target} mode in this session` };
    const before = current.stop;
    o.write(o.key.bytes);
    const deadline = Date.now() + o.settleMs;
    do {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await o.read();
    } while (current?.stop === before && Date.now() < deadline);
    if (current?.stop !== before) moved = true;
  }
  return { ok: false, reason: `${o.agent}'s ${o.shownIn} never showed ${o.target}` };
}
