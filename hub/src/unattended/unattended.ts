// unattended.ts: the guard on work that runs while nobody is at the desk (shared unattended.ts,
// docs/decisions/unattended.md). Every unattended run (a schedule's, a usage-limit continue) asks
// `claim` first: the store counts it once (any hub) unless the namespace paused everything or
// reached the day's cap. What a stopped run becomes (recorded, pushed, not retried) is the asking
// room's: schedules/runs.ts, usage-limits/usage-limits.ts.
//
//   web unattended:get/set · `tether unattended` ─► here ─► store ─► unattended.updated ─► tabs
//   schedule run / limit continue ─► claim ─► store (one conditional UPDATE) ─► counted | paused | cap
//   a session at its limit with no choice ─► continueDefault ─► the namespace's (else the hub's) default
import { ackError, guardDay, guardStopText, type Ack, type GuardStop, type LimitContinue, type Namespace, type UnattendedSet, type WebAcks } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';

/** What a claim gave: go on, or the stop and its words (for the record and the push). */
export type GuardVerdict = { ok: true } | { ok: false; stop: GuardStop; text: string };

export type UnattendedGuardRoom = ReturnType<typeof createUnattendedGuard>;
/** What an unattended room asks of the guard. */
export type GuardClaim = Pick<UnattendedGuardRoom, 'claim'>;
/** What the usage-limit room asks: the claim, and the continue default of a namespace. */
export type LimitGuard = Pick<UnattendedGuardRoom, 'claim' | 'continueDefault'>;

/** `defaultContinue`: the hub's continue-at-reset default (`tether hub --continue-at-reset`), which
 *  stands for a namespace until its person chooses. */
export function createUnattendedGuard(deps: { store: Store; facts: FactBus; defaultCap: number; defaultContinue: boolean; now?: () => number }) {
  const { store, facts } = deps;
  const defaults = { defaultCap: deps.defaultCap, defaultContinue: deps.defaultContinue };
  const now = deps.now ?? Date.now;

  return {
    async get(ns: Namespace): Promise<Ack<WebAcks['unattended:get']>> {
      return { ok: true, guard: await store.getUnattendedGuard({ namespace: ns, ...defaults }) };
    },
    async set(ns: Namespace, change: UnattendedSet): Promise<Ack<WebAcks['unattended:set']>> {
      if (change.paused === undefined && change.dailyCap === undefined && change.limitContinue === undefined) return ackError('bad_request', 'nothing to change');
      const guard = await store.setUnattendedGuard({ namespace: ns, paused: change.paused, dailyCap: change.dailyCap, limitContinue: change.limitContinue, ...defaults, now: now() });
      facts.publish('unattended.updated', { namespace: ns, guard });
      return { ok: true, guard };
    },
    /** What a session at its usage limit with no choice of its own gets at the reset. */
    async continueDefault(ns: Namespace): Promise<LimitContinue> {
      return (await store.getUnattendedGuard({ namespace: ns, ...defaults })).limitContinue;
    },
    /** One unattended run about to start in `ns`: counted, or stopped (never counted then). */
    async claim(ns: Namespace): Promise<GuardVerdict> {
      const at = now();
      const claimed = await store.claimUnattendedRun({ namespace: ns, day: guardDay(at), ...defaults, now: at });
      facts.publish('unattended.updated', { namespace: ns, guard: claimed.guard });
      if (claimed.kind === 'counted') return { ok: true };
      return { ok: false, stop: claimed.kind, text: guardStopText(claimed.kind, claimed.guard.dailyCap) };
    },
  };
}
