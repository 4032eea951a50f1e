// usage-limits.ts: the hub's one place for sessions at their usage limit (docs/decisions/usage-limits.md).
//
//   session.updated (limit reported, cleared, choice changed) ─► timers per session (rule.ts)
//      at the reset         ─► fact session.limit-reset ─► push/notifier (nobody looking → a push)
//      at continueAt        ─► claim in the store (once, whichever hub) ─► the chosen prompt, queued like
//                              a phone's (handed to the runner now, or when it comes back)
//   web session:limit-continue ─► the choice stored ─► session.updated
//
// Why the hub and not the runner: the choice is the person's, kept with the session; the hub outlives
// a runner that exits or relaunches during the wait (the case the agent itself does not cover), holds
// prompts for a runner that is away, notifies, and its store makes the continue happen once with
// several hubs.
import { ackError, type Ack, type Namespace, type Session, type SessionLimitContinue, type WebAcks } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import { planFor, stillStopped, type LimitTiming } from './rule.ts';

type Timers = { resetsAt: number; notify: ReturnType<typeof setTimeout> | null; go: ReturnType<typeof setTimeout> | null };

export type LimitDeps = {
  store: Store;
  facts: FactBus;
  /** Queues a prompt for the session as a phone would (sessions/lifecycle.ts). */
  queuePrompt(ns: Namespace, send: { sessionId: string; promptId: string; text: string; attachments: string[] }): Promise<unknown>;
  timing: LimitTiming;
  /** Continue at the reset when the person chose nothing for the session. */
  continueByDefault: boolean;
  onError: (what: string, error: unknown) => void;
  now?: () => number;
};

export function createUsageLimits(deps: LimitDeps) {
  const now = deps.now ?? Date.now;
  const timers = new Map<string, Timers>();
  const key = (ns: Namespace, sessionId: string) => `${ns}\0${sessionId}`;

  const clear = (k: string) => {
    const t = timers.get(k);
    if (t?.notify) clearTimeout(t.notify);
    if (t?.go) clearTimeout(t.go);
    timers.delete(k);
  };

  async function continueNow(ns: Namespace, sessionId: string, resetsAt: number, prompt: string): Promise<void> {
    const session = await deps.store.getSession({ namespace: ns, sessionId });
    if (!stillStopped(session, resetsAt)) return;
    if (!(await deps.store.claimLimitContinue({ namespace: ns, sessionId, resetsAt }))) return;
    await deps.queuePrompt(ns, { sessionId, promptId: crypto.randomUUID(), text: prompt, attachments: [] });
    const after = await deps.store.getSession({ namespace: ns, sessionId });
    if (after) deps.facts.publish('session.updated', { namespace: ns, session: after });
  }

  /** (Re)arms the session's timers from what it is now: a new reset replaces the old timers, the same
   *  one keeps its notification (told once) and re-plans the continue (the choice may have changed). */
  function follow(ns: Namespace, session: Session): void {
    const k = key(ns, session.id);
    const plan = planFor(session, { timing: deps.timing, byDefault: deps.continueByDefault });
    const had = timers.get(k);
    if (!plan) return clear(k);
    if (had && had.resetsAt !== plan.resetsAt) clear(k);
    const t: Timers = timers.get(k) ?? { resetsAt: plan.resetsAt, notify: null, go: null };
    timers.set(k, t);
    const at = now();
    if (!had || had.resetsAt !== plan.resetsAt) {
      t.notify = setTimeout(() => {
        t.notify = null;
        deps.facts.publish('session.limit-reset', { namespace: ns, sessionId: session.id, resetsAt: plan.resetsAt, goesOn: t.go !== null || session.limit?.agentResumes === true });
      }, Math.max(0, plan.notifyAt - at));
    }
    if (t.go) clearTimeout(t.go);
    t.go = null;
    if (plan.continueAt !== null) {
      t.go = setTimeout(() => {
        t.go = null;
        continueNow(ns, session.id, plan.resetsAt, plan.prompt).catch((error) => deps.onError('usage limit continue', error));
      }, Math.max(0, plan.continueAt - at));
    }
  }

  return {
    listen(facts: FactBus): void {
      facts.on('session.updated', ({ namespace, session }) => follow(namespace, session));
    },
    /** The person's choice for a session (null: the hub's default); acked with the session. */
    async setContinue(ns: Namespace, request: SessionLimitContinue): Promise<Ack<WebAcks['session:limit-continue']>> {
      const session = await deps.store.setLimitContinue({ namespace: ns, sessionId: request.sessionId, choice: request.choice, now: now() });
      if (!session) return ackError('not_found', 'no such session');
      deps.facts.publish('session.updated', { namespace: ns, session });
      return { ok: true, session };
    },
    stop(): void {
      for (const k of [...timers.keys()]) clear(k);
    },
  };
}

export type UsageLimits = ReturnType<typeof createUsageLimits>;
