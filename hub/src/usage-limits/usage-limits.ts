// usage-limits.ts: the hub's one place for sessions at their usage limit (docs/decisions/usage-limits.md).
//
//   session.updated (limit reported, cleared, choice changed) ─► timers per session (rule.ts)
//      at the reset         ─► fact session.limit-reset ─► push/notifier (nobody looking → a push)
//      at continueAt        ─► claim in the store (once, whichever hub) ─► the unattended guard (paused,
//                              the day's cap: held, recorded on the limit) ─► the chosen prompt, queued
//                              like a phone's (handed to the runner now, or when it comes back)
//                              ─► session.limit-continued (a push either way)
//   web session:limit-continue ─► the choice stored ─► session.updated
//   the hub starts ─► every session the store holds at a limit is followed again (its runner may
//                     stay away: the continue waits in the queue for it)
//
// Why the hub and not the runner: the choice is the person's, kept with the session; the hub outlives
// a runner that exits or relaunches during the wait (the case the agent itself does not cover), holds
// prompts for a runner that is away, notifies, and its store makes the continue happen once with
// several hubs.
import { ackError, type Ack, type Namespace, type Session, type SessionLimitContinue, type WebAcks } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import { planFor, stillStopped, type LimitTiming } from './rule.ts';
import type { GuardClaim } from '../unattended/unattended.ts';

type Timers = { resetsAt: number; notify: ReturnType<typeof setTimeout> | null; go: ReturnType<typeof setTimeout> | null };

export type LimitDeps = {
  store: Store;
  facts: FactBus;
  /** Queues a prompt for the session as a phone would (sessions/lifecycle.ts). */
  queuePrompt(ns: Namespace, send: { sessionId: string; promptId: string; text: string; attachments: string[] }): Promise<unknown>;
  timing: LimitTiming;
  /** Continue at the reset when the person chose nothing for the session. */
  continueByDefault: boolean;
  guard: GuardClaim;
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
    // The reset counts as continued either way: a held continue is not tried again for it.
    const guard = await deps.guard.claim(ns);
    if (!guard.ok) {
      const held = await deps.store.holdLimitContinue({ namespace: ns, sessionId, resetsAt, held: guard.stop, now: now() });
      if (held) deps.facts.publish('session.updated', { namespace: ns, session: held });
      deps.facts.publish('session.limit-continued', { namespace: ns, sessionId, resetsAt, prompt, held: { stop: guard.stop, text: guard.text } });
      return;
    }
    await deps.queuePrompt(ns, { sessionId, promptId: crypto.randomUUID(), text: prompt, attachments: [] });
    const after = await deps.store.getSession({ namespace: ns, sessionId });
    if (after) deps.facts.publish('session.updated', { namespace: ns, session: after });
    deps.facts.publish('session.limit-continued', { namespace: ns, sessionId, resetsAt, prompt, held: null });
  }

  /** (Re)arms the session's timers from what it is now: a new reset replaces the old timers, the same
   *  one keeps its notification (told once) and re-plans the continue (the choice may have changed). */
  function follow(ns: Namespace, session: Session, o: { told?: boolean } = {}): void {
    const k = key(ns, session.id);
    const plan = planFor(session, { timing: deps.timing, byDefault: deps.continueByDefault });
    const had = timers.get(k);
    if (!plan) return clear(k);
    if (had && had.resetsAt !== plan.resetsAt) clear(k);
    const t: Timers = timers.get(k) ?? { resetsAt: plan.resetsAt, notify: null, go: null };
    timers.set(k, t);
    const at = now();
    if (!o.told && (!had || had.resetsAt !== plan.resetsAt)) {
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
    /** A hub that starts: the limits the store holds are followed again (timers live in memory; the
     *  claim in the store keeps the continue to one with several hubs). A reset that passed while no
     *  hub ran is not told again at start; its continue (when chosen) is told. */
    async rearm(): Promise<number> {
      const held = await deps.store.sessionsAtLimit();
      const at = now();
      for (const { namespace, session } of held) follow(namespace, session, { told: (session.limit?.resetsAt ?? 0) <= at });
      return held.length;
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
