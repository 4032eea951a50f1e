// usage-limits.ts: the hub's one place for sessions at their usage limit (docs/decisions/usage-limits.md).
//
//   session.updated (limit reported, cleared, choice changed) ─► timers per session (rule.ts)
//      at the reset         ─► fact session.limit-reset ─► push/notifier (nobody looking → a push)
//      at continueAt        ─► claim in the store (once, whichever hub) ─► the unattended guard (paused,
//                              the day's cap: held, recorded on the limit) ─► the chosen prompt, queued
//                              like a phone's (handed to the runner now, or when it comes back)
//                              ─► session.limit-continued (a push either way)
//   web session:limit-continue ─► the choice stored ─► session.updated
//   a session with no choice ─► the namespace's default (unattended:set; the hub's until chosen),
//                               re-planned when it changes (unattended.updated), read again at continueAt
//   the hub starts ─► every session the store holds at a limit is followed again (its runner may
//                     stay away: the continue waits in the queue for it)
//
// Why the hub and not the runner: the choice is the person's, kept with the session; the hub outlives
// a runner that exits or relaunches during the wait (the case the agent itself does not cover), holds
// prompts for a runner that is away, notifies, and its store makes the continue happen once with
// several hubs.
import { ackError, type Ack, type LimitContinue, type Namespace, type Session, type SessionLimitContinue, type UnattendedGuard, type WebAcks } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import { continueChoice, planFor, stillStopped, type LimitTiming } from './rule.ts';
import type { LimitGuard } from '../unattended/unattended.ts';

/** A followed session's timers, and what they were planned from (a changed default re-plans it). */
type Timers = { resetsAt: number; notify: ReturnType<typeof setTimeout> | null; go: ReturnType<typeof setTimeout> | null; session: Session; byDefault: LimitContinue };

/** Planned from when the session has its own choice (the default does not matter then). */
const UNUSED_DEFAULT: LimitContinue = { on: false, prompt: 'continue' };
const sameChoice = (a: LimitContinue, b: LimitContinue) => a.on === b.on && a.prompt === b.prompt;

export type LimitDeps = {
  store: Store;
  facts: FactBus;
  /** Queues a prompt for the session as a phone would (sessions/lifecycle.ts). */
  queuePrompt(ns: Namespace, send: { sessionId: string; promptId: string; text: string; attachments: string[] }): Promise<unknown>;
  timing: LimitTiming;
  /** The day's cap and pause (claim), and the continue default of a session's namespace. */
  guard: LimitGuard;
  onError: (what: string, error: unknown) => void;
  now?: () => number;
};

export function createUsageLimits(deps: LimitDeps) {
  const now = deps.now ?? Date.now;
  const timers = new Map<string, Timers>();
  // The newest plan asked for per session: a slower read of the default never overwrites a newer one.
  const latest = new Map<string, number>();
  let asked = 0;
  const key = (ns: Namespace, sessionId: string) => `${ns}\0${sessionId}`;

  const clear = (k: string) => {
    const t = timers.get(k);
    if (t?.notify) clearTimeout(t.notify);
    if (t?.go) clearTimeout(t.go);
    timers.delete(k);
  };

  async function continueNow(ns: Namespace, sessionId: string, resetsAt: number): Promise<void> {
    const session = await deps.store.getSession({ namespace: ns, sessionId });
    if (!stillStopped(session, resetsAt)) return;
    // Read again now: the default may have been switched off on another hub since the timer was set.
    const { on, prompt } = continueChoice(session, session.limitContinue ? UNUSED_DEFAULT : await deps.guard.continueDefault(ns));
    if (!on) return;
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

  /** Plans the session from what it is now; a session at a limit with no choice of its own first
   *  reads its namespace's default. */
  function follow(ns: Namespace, session: Session, o: { told?: boolean } = {}): void {
    const k = key(ns, session.id);
    const mine = ++asked;
    latest.set(k, mine);
    if (!session.limit || session.limitContinue) return arm(ns, session, UNUSED_DEFAULT, o);
    deps.guard
      .continueDefault(ns)
      .then((byDefault) => (latest.get(k) === mine ? arm(ns, session, byDefault, o) : undefined))
      .catch((error: unknown) => deps.onError('usage limit default', error));
  }

  /** (Re)arms the session's timers: a new reset replaces the old timers, the same one keeps its
   *  notification (told once) and re-plans the continue (the choice may have changed). */
  function arm(ns: Namespace, session: Session, byDefault: LimitContinue, o: { told?: boolean }): void {
    const k = key(ns, session.id);
    const plan = planFor(session, { timing: deps.timing, byDefault });
    const had = timers.get(k);
    if (!plan) {
      latest.delete(k);
      return clear(k);
    }
    if (had && had.resetsAt !== plan.resetsAt) clear(k);
    const t: Timers = timers.get(k) ?? { resetsAt: plan.resetsAt, notify: null, go: null, session, byDefault };
    Object.assign(t, { session, byDefault });
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
        continueNow(ns, session.id, plan.resetsAt).catch((error) => deps.onError('usage limit continue', error));
      }, Math.max(0, plan.continueAt - at));
    }
  }

  /** The namespace's default changed: its followed sessions without a choice of their own re-plan. */
  function defaultChanged(ns: Namespace, guard: UnattendedGuard): void {
    for (const [k, t] of timers) {
      if (!k.startsWith(`${ns}\0`) || t.session.limitContinue || sameChoice(t.byDefault, guard.limitContinue)) continue;
      latest.set(k, ++asked);
      arm(ns, t.session, guard.limitContinue, { told: true });
    }
  }

  return {
    listen(facts: FactBus): void {
      facts.on('session.updated', ({ namespace, session }) => follow(namespace, session));
      facts.on('unattended.updated', ({ namespace, guard }) => defaultChanged(namespace, guard));
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
    /** The person's choice for a session (null: the namespace's default); acked with the session. */
    async setContinue(ns: Namespace, request: SessionLimitContinue): Promise<Ack<WebAcks['session:limit-continue']>> {
      const session = await deps.store.setLimitContinue({ namespace: ns, sessionId: request.sessionId, choice: request.choice, now: now() });
      if (!session) return ackError('not_found', 'no such session');
      deps.facts.publish('session.updated', { namespace: ns, session });
      return { ok: true, session };
    },
    stop(): void {
      for (const k of [...timers.keys()]) clear(k);
      latest.clear();
    },
  };
}

export type UsageLimits = ReturnType<typeof createUsageLimits>;
