// start-gate.ts: when a PTY session becomes ready (status idle, so the prompt queue may type). For
// most agents: their input on screen. For an agent that takes input only after its SessionStart hook
// ran (Agent.inputAfterSessionStart; Gemini draws its input, then runs the hook, and drops what is
// typed meanwhile), three facts read in order:
//
//   input shown ─► SessionStart reached the runner ─► the screen busy with the hook, then ready again
//
// The hook's busy row is drawn from its start until after it ended (Gemini keeps it up at least 3 s),
// and the runner answers the hook at once, so the first ready screen after a busy one that follows
// the input is the hook gone. A prompt sent while it starts waits in the queue meanwhile.
//
// An agent tether hears through a channel of its own (HookInstall.hearing: opencode's event stream)
// is ready only once that channel is open too (bounded by HEARING_WAIT_MS, logged).
//
// Invariant: ready is published once. Bounds, each logged: no busy row within HOOK_BUSY_WAIT_MS of
// SessionStart (an agent set to draw none) → ready; the row still up 3× that after it → ready; no
// SessionStart within SESSION_START_WAIT_MS of the input (hooks turned off) → ready.
import type { PromptState } from '../../screen/prompt-state.ts';

/** How long a drawn input waits for SessionStart before the session counts as ready without it. */
export const SESSION_START_WAIT_MS = 20_000;
/** How long after SessionStart a busy row for the hook may take to show before it counts as none. */
export const HOOK_BUSY_WAIT_MS = 4_000;
/** How long a drawn input waits for the agent's own channel (opencode's server took 27-60 s to
 *  answer on a loaded machine, but its TUI draws its input only once it has, so this is a bound). */
export const HEARING_WAIT_MS = 60_000;

export type StartGate = {
  /** The screen showed the agent's input for the first time, `afterMs` after the spawn. */
  inputShown(afterMs: number): void;
  /** Each screen read's prompt state. */
  screenRead(kind: PromptState['kind']): void;
  /** The agent's SessionStart hook reached the runner. */
  sessionStarted(): void;
  /** Ready waits for this too (HookInstall.hearing); given before the input shows. */
  hearing(heard: Promise<void>): void;
  stop(): void;
};

export function createStartGate(o: {
  waitForSessionStart: boolean;
  ready: () => void;
  log: (line: string) => void;
  waits?: { sessionStartMs?: number; hookBusyMs?: number; hearingMs?: number };
}): StartGate {
  const sessionStartMs = o.waits?.sessionStartMs ?? SESSION_START_WAIT_MS;
  const hookBusyMs = o.waits?.hookBusyMs ?? HOOK_BUSY_WAIT_MS;
  let input = false;
  let started = !o.waitForSessionStart;
  /** Busy seen after the input showed (the hook's row), and ready seen after that. */
  let hookBusy = !o.waitForSessionStart;
  let hookGone = !o.waitForSessionStart;
  let published = false;
  let heard = true;
  let hearingTimer: ReturnType<typeof setTimeout> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const wait = (ms: number, why: string, give: () => void) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      o.log(why);
      give();
      publish();
    }, ms);
  };
  const publish = () => {
    if (published || !input || !started || !hookGone || !heard) return;
    published = true;
    if (timer) clearTimeout(timer);
    if (hearingTimer) clearTimeout(hearingTimer);
    if (o.waitForSessionStart) o.log('SessionStart ran: ready');
    o.ready();
  };
  return {
    inputShown(afterMs) {
      o.log(`ready in ${afterMs} ms${o.waitForSessionStart ? ' (input shown; waiting for its SessionStart hook)' : ''}`);
      input = true;
      publish();
      if (published) return;
      if (!started) wait(sessionStartMs, `no SessionStart ${sessionStartMs} ms after the input showed: ready without it`, () => ((started = true), (hookBusy = true), (hookGone = true)));
      else wait(hookBusyMs, `no busy row ${hookBusyMs} ms after the input showed (SessionStart came first): ready`, () => ((hookBusy = true), (hookGone = true)));
    },
    screenRead(kind) {
      if (!input || hookGone) return;
      if (kind === 'busy') hookBusy = true;
      else if (kind === 'ready' && hookBusy && started) hookGone = true;
      publish();
    },
    sessionStarted() {
      if (started) return;
      started = true;
      if (!input) return;
      if (!hookBusy) wait(hookBusyMs, `no busy row ${hookBusyMs} ms after SessionStart: ready`, () => ((hookBusy = true), (hookGone = true)));
      else wait(hookBusyMs * 3, `no ready screen ${hookBusyMs * 3} ms after SessionStart: ready`, () => (hookGone = true));
    },
    hearing(channel) {
      heard = false;
      const hear = (why: string | null) => {
        if (heard) return;
        heard = true;
        if (hearingTimer) clearTimeout(hearingTimer);
        if (why) o.log(why);
        publish();
      };
      const bound = o.waits?.hearingMs ?? HEARING_WAIT_MS;
      hearingTimer = setTimeout(() => hear(`its own channel not open ${bound} ms after the launch: ready without it`), bound);
      channel.then(() => hear(null), (error: unknown) => hear(`its own channel failed (${String(error)}): ready without it`));
    },
    stop() {
      if (timer) clearTimeout(timer);
      if (hearingTimer) clearTimeout(hearingTimer);
    },
  };
}
