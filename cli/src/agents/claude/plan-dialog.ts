// plan-dialog.ts: ExitPlanMode may need one more step after the hook allowed it. claude 2.1.330
// keeps its own "Exit plan mode?" dialog (❯ 1. Yes, and switch to default… / 2. No) on screen even
// after its PermissionRequest hook said allow (2.1.197 closes it), so an approval from the phone
// would otherwise stall at the desk. After a plan approval the runner
// reads the dialog from the screen model and presses the digit of its "Yes" option (digits select
// at once). Only this dialog is touched: anything else on screen is left alone. While it is at it,
// the dialog is the approved plan's (`covers`): the dialog bridge never asks the phone about it again.
import type { ScreenModel } from '../../screen/screen.ts';

/** How long claude may take to draw the dialog after the hook answered (it takes ~100 ms). */
const PLAN_DIALOG_WAIT_MS = 10_000;
/** Screen re-read interval while waiting for the dialog. */
const POLL_MS = 50;
/** claude 2.1.330 ignores a key that lands while it is still taking the hook's answer; a dialog
 *  still on screen this long after a press gets the press again. */
const REPRESS_MS = 700;

/** The digit of the first "Yes" option of a visible "Exit plan mode?" dialog, or null. */
export function planDialogYesDigit(screenText: string): string | null {
  const lines = screenText.split('\n');
  const title = lines.findIndex((line) => /Exit plan mode\?/.test(line));
  if (title === -1) return null;
  for (const line of lines.slice(title + 1)) {
    const option = /^\s*(?:❯\s*)?(\d)\.\s+Yes\b/.exec(line);
    if (option) return option[1]!;
  }
  return null;
}

export type PlanConfirmation = {
  stop(): void;
  /** Resolves with true once a dialog was pressed and has gone, false when none came (2.1.197),
   *  it never went (timed out) or it was stopped. */
  done: Promise<boolean>;
  /** Whether this screen text is the plan dialog this confirmation is still answering. */
  covers(screenText: string): boolean;
};

export function confirmPlanDialog(options: { screen: Pick<ScreenModel, 'state'>; write: (data: string) => void; timeoutMs?: number }): PlanConfirmation {
  const deadline = Date.now() + (options.timeoutMs ?? PLAN_DIALOG_WAIT_MS);
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let finished = false;
  let pressedAt = 0;
  let resolve: (pressed: boolean) => void = () => {};
  const done = new Promise<boolean>((r) => (resolve = r));
  const finish = (pressed: boolean) => {
    finished = true;
    resolve(pressed);
  };
  const check = () => {
    timer = null;
    if (stopped) return;
    void options.screen.state().then((screen) => {
      if (stopped) return;
      const digit = planDialogYesDigit(screen.text);
      if (!digit && pressedAt) return finish(true); // the dialog is gone: done
      if (digit && Date.now() - pressedAt >= REPRESS_MS) {
        options.write(digit);
        pressedAt = Date.now();
      }
      if (Date.now() < deadline) timer = setTimeout(check, POLL_MS);
      else finish(false);
    });
  };
  timer = setTimeout(check, POLL_MS);
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      finish(false);
    },
    done,
    covers: (screenText) => !finished && planDialogYesDigit(screenText) !== null,
  };
}
