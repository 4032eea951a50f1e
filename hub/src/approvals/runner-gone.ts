// runner-gone.ts: pending requests of a runner whose /cli socket went away and did not come back.
// A runner that only lost its connection reconnects, re-registers and re-sends what still waits,
// so a drop alone withdraws nothing. After `graceMs` with no socket in the session's runner room
// the runner is taken to be dead (SIGKILL, machine gone): its pending requests are withdrawn and
// every tab clears them. session:end withdraws at once; this covers the runner that never sends it.
import type { Namespace, Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';

/** Longer than the hub link's longest reconnect back-off (10 s) plus a register round trip, so a
 *  live runner is never mistaken for a dead one. */
export const RUNNER_GONE_GRACE_MS = 30_000;

export async function withdrawPendingOfSession(options: {
  store: Store;
  namespace: Namespace;
  sessionId: string;
  reason: string;
}): Promise<Resolution[]> {
  const { store, namespace, sessionId } = options;
  const withdrawn: Resolution[] = [];
  for (const request of await store.listPending({ namespace, sessionId })) {
    const result = await store.resolveRequest({
      namespace,
      requestId: request.id,
      sessionId,
      outcome: 'withdrawn',
      answer: null,
      answeredBy: null,
      device: null,
      at: Date.now(),
    });
    if (result.kind === 'resolved') withdrawn.push(result.resolution);
  }
  return withdrawn;
}

/** Schedules the check for each session a disconnected runner socket held. The timer never keeps
 *  the process alive, and a hub that stopped meanwhile (store closed) is ignored. */
export type RunnerGoneWatch = {
  store: Store;
  namespace: Namespace;
  sessionIds: Iterable<string>;
  graceMs: number;
  /** Any hub of the cluster has a socket in the session's runner room (true when unsure). */
  runnerPresent: (sessionId: string) => boolean | Promise<boolean>;
  publish: (result: { namespace: Namespace; sessionId: string; withdrawn: Resolution[] }) => void | Promise<void>;
};

export function watchRunnerGone(options: RunnerGoneWatch): void {
  for (const sessionId of [...options.sessionIds]) {
    const timer = setTimeout(async () => {
      try {
        if (await options.runnerPresent(sessionId)) return;
        const withdrawn = await withdrawPendingOfSession({ store: options.store, namespace: options.namespace, sessionId, reason: 'the runner went away' });
        if (withdrawn.length > 0) await options.publish({ namespace: options.namespace, sessionId, withdrawn });
      } catch {
        // the hub stopped while the timer waited
      }
    }, options.graceMs);
    timer.unref?.();
  }
}
