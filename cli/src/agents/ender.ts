// ender.ts: how a runner ends an agent when a person asks (the phone's End, `tether stop`): through the
// agent's own exit path (each agent's room says which keys or input), step by step until it exits,
// and SIGTERM only as the last resort. Invariant: one end per runner; a second request is a no-op.
import { AGENT_END_GRACE_MS } from '@tether/shared';

export type Ender = {
  /** Start ending the agent (idempotent). */
  end(): void;
  /** Whether the end began: the agent's exit is then the end's doing (its keys, a signal), not its own. */
  began(): boolean;
};

export function createEnder(options: {
  /** One step of the clean path, taken at each of `at` (ms after the request) until the agent exits. */
  step: (index: number) => void;
  at: readonly number[];
  graceMs?: number;
  /** Resolves once the agent has exited. */
  exited: Promise<unknown>;
  /** The last resort when the clean path did not end the agent in time. */
  force: () => void;
  log: (line: string) => void;
}): Ender {
  const graceMs = options.graceMs ?? AGENT_END_GRACE_MS;
  let started = false;
  let gone = false;
  const timers: ReturnType<typeof setTimeout>[] = [];
  void options.exited.then(() => {
    gone = true;
    for (const t of timers) clearTimeout(t);
  });
  return {
    end: () => {
      if (started || gone) return;
      started = true;
      const began = Date.now();
      void options.exited.then(() => options.log(`the agent ended on request in ${Date.now() - began} ms`));
      options.at.forEach((ms, i) => {
        timers.push(
          setTimeout(() => {
            if (!gone) options.step(i);
          }, ms),
        );
      });
      timers.push(
        setTimeout(() => {
          if (gone) return;
          options.log(`the agent did not exit within ${graceMs} ms of the end request: SIGTERM`);
          options.force();
        }, graceMs),
      );
    },
    began: () => started,
  };
}


export type TurnEnder = Ender & {
  /** The agent's turn ended: true when an end was waiting for it (the input is now closed and no
   *  further turn may start). */
  turnEnded(): boolean;
};

/** A headless agent's end: its input closed, after the turn in flight (interrupted first) ends. */
export function createTurnEnder(options: {
  busy: () => boolean;
  interrupt: () => void;
  closeInput: () => void;
  exited: Promise<unknown>;
  force: () => void;
  log: (line: string) => void;
}): TurnEnder {
  let waitingForTurn = false;
  const ender = createEnder({
    step: () => {
      if (!options.busy()) return options.closeInput();
      waitingForTurn = true;
      options.interrupt();
    },
    at: [0],
    exited: options.exited,
    force: options.force,
    log: options.log,
  });
  return {
    end: ender.end,
    began: ender.began,
    turnEnded: () => {
      if (!waitingForTurn) return false;
      options.closeInput();
      return true;
    },
  };
}
