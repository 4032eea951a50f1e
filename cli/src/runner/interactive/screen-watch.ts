// screen-watch.ts: reads the agent's screen after its output pauses (16 ms), and tells every part
// that follows it: the prompt became ready (the session is idle), a dialog is up or gone (the dialog
// bridge), the agent's own dialog gave way (approvals: the desk answered), Ctrl-Z's notice, and the
// effort and mode its footer shows. The prompt queue is poked after each read.
//
// A read takes every cell of the screen. While output floods (more than FLOOD_BYTES in 16 ms) the
// prompt cannot be idle, so the screen is read at most every FLOOD_MS meanwhile; the read right
// after output pauses (what the typing gate waits for) still runs within 16 ms of the last byte.
import type { ScreenDialog } from '../../dialogs/read-dialog.ts';
import type { PromptState } from '../../screen/prompt-state.ts';
import type { PtyContext } from './pty-context.ts';

/** Output in 16 ms that counts as a flood (~4 MB/s: far more than an agent's TUI ever draws)... */
const FLOOD_BYTES = 64 * 1024;
/** ...during which the screen is read for prompt state at most this often. */
const FLOOD_MS = 250;
const QUIET_MS = 16;

export function createScreenWatch(
  ctx: PtyContext,
  o: {
    /** Each read's findings, before the queue is poked. */
    onRead: (read: { text: string; dialog: ScreenDialog | null; promptState: PromptState; ready: boolean; lines: Awaited<ReturnType<PtyContext['screen']['state']>>['lines'] }) => void;
    /** The first read past 'starting'. */
    onReady: (afterMs: number) => void;
  },
) {
  const { agent, screen, queue } = ctx;
  const startedAt = Date.now();
  let ready = false;
  let readyAt: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let bytesSinceCheck = 0;
  let lastCheckAt = 0;
  const check = () => {
    timer = null;
    const flooding = bytesSinceCheck > FLOOD_BYTES;
    bytesSinceCheck = 0;
    if (flooding && ready && performance.now() - lastCheckAt < FLOOD_MS) {
      timer = setTimeout(check, QUIET_MS);
      return;
    }
    lastCheckAt = performance.now();
    void screen.state().then(({ text, lines, promptState }) => {
      o.onRead({ text, lines, promptState, ready, dialog: agent.screen.readDialog(lines) });
      if (!ready && promptState.kind !== 'starting') {
        ready = true;
        readyAt = Date.now();
        o.onReady(readyAt - startedAt);
      }
      queue.poke();
    });
  };
  return {
    /** `count` bytes of output were written to the screen model. */
    output(count: number) {
      bytesSinceCheck += count;
      if (!timer) timer = setTimeout(check, QUIET_MS);
    },
    ready: () => ready,
    /** How long the agent took to show its prompt (null: it never did). */
    readyAfterMs: () => (readyAt === null ? null : readyAt - startedAt),
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
