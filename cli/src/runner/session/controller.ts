// controller.ts: who drives the session right now, 'desk' or 'remote', as the hub shows it.
// Desk = real keystrokes at a desk terminal (`tether claude` with a TTY, or `tether attach`).
// Remote = a prompt delivered from the hub, a phone's terminal input, an approval answered remotely.
// Invariant: bytes a terminal sends by itself (focus in/out, cursor position and device attribute
// replies, OSC colour/theme answers, DCS/DECRQM reports, mouse motion) are not typing: a desk that
// merely has the window focused never takes control from the phone.
import type { Controller } from '@tether/shared';

/** Replies and reports a terminal emits without a key being pressed. Order matters: longest forms first. */
const TERMINAL_REPLIES: RegExp[] = [
  /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, // OSC replies (colours, theme, clipboard query answers)
  /\x1bP[\s\S]*?\x1b\\/g, // DCS replies (XTVERSION, DECRQSS, XTGETTCAP)
  /\x1b_[\s\S]*?\x1b\\/g, // APC replies (kitty graphics)
  /\x1b\[\d+;\d+R/g, // cursor position report
  /\x1b\[[?>=][\d;]*c/g, // primary / secondary / tertiary device attributes
  /\x1b\[\?[\d;]*\$y/g, // DECRQM mode reports
  /\x1b\[\?\d*u/g, // kitty keyboard flags report
  /\x1b\[\?\d+;\d+n/g, // colour-scheme (2031) / DSR-style private reports
  /\x1b\[\d*n/g, // device status report answer ("\x1b[0n")
  /\x1b\[[IO]/g, // focus in / out
  /\x1b\[<\d+;\d+;\d+[Mm]/g, // SGR mouse (motion and clicks are not "typing" a prompt)
  /\x1b\[\d+;\d+;\d+t/g, // window size reports
];

/** True when `data` holds at least one byte a person typed (or pasted). */
export function isDeskKeystroke(data: string): boolean {
  let rest = data;
  for (const re of TERMINAL_REPLIES) rest = rest.replace(re, '');
  return rest.length > 0;
}

/** Tracks the controller and reports each change once (the hub stores the last report). */
export function createControllerTracker(options: { report: (controller: Controller) => void }) {
  let current: Controller | null = null;
  return {
    set(next: Controller) {
      if (current === next) return;
      current = next;
      options.report(next);
    },
    get current() {
      return current;
    },
  };
}
