// detach.ts: the End of an attached session (the phone's End, `tether stop`): our attach view goes,
// the background session stays in the agent's pool. The agent's detach keys first (claude: Ctrl+Z,
// after which `claude attach` exits 0), again once, then SIGTERM to our attach process only — its
// PTY's group holds nothing of the background session, which runs under the agent's own daemon.
import { createEnder, type Ender } from '../../agents/ender.ts';
import type { PtyHandle } from '../session/attached-launch.ts';

/** When the detach keys go, in ms after the request: the second press covers one typed mid-redraw. */
const DETACH_PRESSES_AT = [0, 1_000];

export function createDetacher(o: { keys: string; pty: PtyHandle; log: (line: string) => void }): Ender {
  return createEnder({
    step: () => o.pty.write(o.keys),
    at: DETACH_PRESSES_AT,
    exited: o.pty.exited,
    force: () => o.pty.kill('SIGTERM'),
    log: o.log,
  });
}
