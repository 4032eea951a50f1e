// start-gate.ts: when a PTY session becomes ready (status idle, so the prompt queue may type): the
// agent's input on screen, and, for an agent that takes input only after its SessionStart hook ran
// (Agent.inputAfterSessionStart), that hook seen too. A prompt sent while it starts waits in the
// queue meanwhile; the screen gate still holds it while the hook's own busy row is drawn.
//
// Invariant: ready is published once. If SessionStart never comes (the user's settings turn hooks
// off), the session is ready anyway SESSION_START_WAIT_MS after its input showed, and says so.

/** How long a drawn input waits for SessionStart before the session counts as ready without it. */
export const SESSION_START_WAIT_MS = 20_000;

export type StartGate = {
  /** The screen showed the agent's input for the first time, `afterMs` after the spawn. */
  inputShown(afterMs: number): void;
  /** The agent's SessionStart hook reached the runner. */
  sessionStarted(): void;
  stop(): void;
};

export function createStartGate(o: { waitForSessionStart: boolean; ready: () => void; log: (line: string) => void; waitMs?: number }): StartGate {
  let input = false;
  let started = !o.waitForSessionStart;
  let published = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const publish = () => {
    if (published || !input || !started) return;
    published = true;
    if (timer) clearTimeout(timer);
    o.ready();
  };
  return {
    inputShown(afterMs) {
      o.log(`ready in ${afterMs} ms${started ? '' : ' (input shown; waiting for its SessionStart hook)'}`);
      input = true;
      publish();
      if (published) return;
      timer = setTimeout(() => {
        o.log(`no SessionStart ${o.waitMs ?? SESSION_START_WAIT_MS} ms after the input showed: ready without it`);
        started = true;
        publish();
      }, o.waitMs ?? SESSION_START_WAIT_MS);
    },
    sessionStarted() {
      if (started) return;
      started = true;
      if (input) o.log('SessionStart seen: ready');
      publish();
    },
    stop() {
      if (timer) clearTimeout(timer);
    },
  };
}
