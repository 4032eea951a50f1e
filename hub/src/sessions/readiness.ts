// readiness.ts: waits for a session the hub asked a daemon to start (or stop) to get where it was
// asked to go, from the session facts the hub already sees (register/update/end, pending requests)
// and the daemon's `runner:exited`.
//
//   session:spawn ─wait(ready)─► … session:updated idle|thinking|waiting (or a pending request) ─► ready
//                                  session:updated failed|ended / runner:exited / timeout ─► failed
//
// Invariant: only facts that arrive after the wait began count (a resumed session starts out
// `ended`); every wait settles exactly once and releases its timer.
import { isFinalStatus, type Namespace, type Session } from '@tether/shared';

export type ReadinessOutcome =
  | { kind: 'ready'; session: Session }
  | { kind: 'ended'; session: Session | null; exitCode: number | null; reason: string | null }
  | { kind: 'timeout' };

type Waiter = { goal: 'ready' | 'ended'; settle: (outcome: ReadinessOutcome) => void };

export type SessionReadiness = ReturnType<typeof createSessionReadiness>;

export function createSessionReadiness() {
  const waiters = new Map<string, Set<Waiter>>();
  const key = (ns: Namespace, sessionId: string) => `${ns}\u0000${sessionId}`;

  const settleAll = (k: string, pick: (waiter: Waiter) => ReadinessOutcome | null) => {
    for (const waiter of [...(waiters.get(k) ?? [])]) {
      const outcome = pick(waiter);
      if (outcome) waiter.settle(outcome);
    }
  };

  return {
    /** Resolves when the session is ready (`goal: 'ready'`) or has ended, or after `timeoutMs`. */
    wait(options: { namespace: Namespace; sessionId: string; goal: 'ready' | 'ended'; timeoutMs: number }): Promise<ReadinessOutcome> {
      const k = key(options.namespace, options.sessionId);
      return new Promise((resolve) => {
        let done = false;
        const waiter: Waiter = {
          goal: options.goal,
          settle: (outcome) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            const set = waiters.get(k);
            set?.delete(waiter);
            if (set?.size === 0) waiters.delete(k);
            resolve(outcome);
          },
        };
        const timer = setTimeout(() => waiter.settle({ kind: 'timeout' }), options.timeoutMs);
        if (!waiters.has(k)) waiters.set(k, new Set());
        waiters.get(k)!.add(waiter);
      });
    },
    /** Every session.updated fact (this hub's, and other hubs' through the cluster) comes here. */
    sessionUpdated(ns: Namespace, session: Session): void {
      settleAll(key(ns, session.id), (waiter) => {
        if (session.status === 'failed' && session.failureReason === null) {
          // A runner that re-registers already failed says so before its session:end brings the
          // reason; the reason (or the daemon's runner:exited) follows, so wait for it.
          return null;
        }
        if (isFinalStatus(session.status)) {
          return { kind: 'ended', session, exitCode: session.exitCode, reason: session.failureReason };
        }
        if (waiter.goal !== 'ready') return null;
        // Ready = claude takes input; a pending request (a start-up dialog: trust, MCP…) needs the user first.
        if (session.status !== 'starting' || session.pendingCount > 0) return { kind: 'ready', session };
        return null;
      });
    },
    /** The daemon saw the runner process exit. */
    runnerExited(ns: Namespace, sessionId: string, exit: { exitCode: number | null; reason: string | null }): void {
      settleAll(key(ns, sessionId), () => ({ kind: 'ended', session: null, ...exit }));
    },
    stop(): void {
      for (const k of [...waiters.keys()]) settleAll(k, () => ({ kind: 'timeout' }));
    },
  };
}
