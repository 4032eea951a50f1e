// runs.ts: fires the schedules whose run is due, on every hub of a cluster alike: each asks the store
// for due runs on its clock's tick, and fires only a run it claimed (one conditional UPDATE that
// moves the next run on: of several hubs one wins). A live session gets the prompt through its
// queue (held by the hub while its runner is away, handed over once it returns); a new session is
// started through the machine's daemon (as the new-session form starts one) and then gets it.
//
//   clock tick ─► store.dueSchedules ─► maker revoked? (delete) ─► can it run now? ─► claim ─► the
//   unattended guard (paused? the day's cap? a store claim: stopped runs are recorded, never retried) ─► fire
//   fire ─► sessions.queuePrompt | remote.spawn + queuePrompt ─► store.recordScheduleRun
//        ─► schedule.updated (tabs) · schedule.ran (push: nobody is at the desk)
//
// Missed runs (the hub was down, the machine asleep): a run later than SCHEDULE_LATE_MS is missed; it
// runs once when it can (the next run counted from now, so ten missed times make one run) or, as the
// person chose, is skipped and reported. A new session's run waits for its machine to come back.
import {
  isFinalStatus,
  MIN_SCHEDULE_GAP_MS,
  runAfter,
  SCHEDULE_LATE_MS,
  type Namespace,
  type Schedule,
  type ScheduleRun,
} from '@tether/shared';
import type { DueSchedule, Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { Machines } from '../machines/machines.ts';
import type { RemoteSessions } from '../machines/remote-sessions.ts';
import type { RunnerCommands } from '../facts/runners.ts';
import type { Clock } from './clock.ts';
import type { GuardClaim } from '../unattended/unattended.ts';

/** How often a hub looks for due runs. */
export const SCHEDULE_TICK_MS = 5_000;
/** Due runs one tick takes at most (the rest next tick). */
const DUE_PER_TICK = 50;

type Deps = {
  store: Store;
  facts: FactBus;
  sessions: Pick<Sessions, 'get' | 'queuePrompt'>;
  machines: Pick<Machines, 'find'>;
  remote: Pick<RemoteSessions, 'spawn'>;
  runners: Pick<RunnerCommands, 'present'>;
  clock: Clock;
  guard: GuardClaim;
  onError: (what: string, error: unknown) => void;
};

/** What a due run becomes now: fired, skipped (missed, and the person chose skip), or left due
 *  (its machine is away: it waits, and runs once when it is back). */
type Plan = { kind: 'fire'; away: boolean } | { kind: 'skip'; why: string } | { kind: 'wait' } | { kind: 'fail'; why: string };

async function planFor(deps: Deps, o: { ns: Namespace; schedule: Schedule; late: boolean }): Promise<Plan> {
  const { target } = o.schedule;
  const skipping = o.late && o.schedule.missed === 'skip';
  if (target.kind === 'session') {
    const session = await deps.sessions.get(o.ns, target.sessionId);
    if (!session || isFinalStatus(session.status)) return { kind: 'fail', why: 'its session has ended: the schedule is paused' };
    const away = !(await deps.runners.present(o.ns, target.sessionId));
    if (skipping) return { kind: 'skip', why: 'missed while the hub was down; skipped, as chosen' };
    if (away && o.schedule.missed === 'skip') return { kind: 'skip', why: "the session's runner was away; skipped, as chosen" };
    return { kind: 'fire', away };
  }
  const machine = await deps.machines.find(o.ns, target.machineId);
  if (!machine) return { kind: 'fail', why: 'its machine is no longer known to the hub: the schedule is paused' };
  if (skipping) return { kind: 'skip', why: `missed while ${machine.online ? 'the hub was down' : `${machine.name} was away`}; skipped, as chosen` };
  return machine.online ? { kind: 'fire', away: false } : { kind: 'wait' };
}

export function createScheduleRuns(deps: Deps) {
  const { store, facts, clock } = deps;
  const firing = new Set<Promise<void>>();
  let ticking: Promise<void> | null = null;

  const record = async (ns: Namespace, schedule: Schedule, run: ScheduleRun, pause: boolean) => {
    const stored = await store.recordScheduleRun({ namespace: ns, id: schedule.id, run, pause, now: clock.now() });
    if (!stored) return;
    facts.publish('schedule.updated', { namespace: ns, schedule: stored });
    facts.publish('schedule.ran', { namespace: ns, schedule: stored, run });
  };

  /** Sends the prompt where the schedule says; what happened, as a run. */
  const fire = async (ns: Namespace, schedule: Schedule, base: Omit<ScheduleRun, 'outcome' | 'sessionId' | 'detail'>, away: boolean): Promise<{ run: ScheduleRun; pause: boolean }> => {
    const { target } = schedule;
    const send = (sessionId: string) => deps.sessions.queuePrompt(ns, { sessionId, promptId: crypto.randomUUID(), text: schedule.prompt, attachments: [] });
    if (target.kind === 'session') {
      const sent = await send(target.sessionId);
      if (!sent.ok) return { run: { ...base, outcome: 'failed', sessionId: target.sessionId, detail: sent.error }, pause: sent.code === 'gone' || sent.code === 'not_found' };
      return { run: { ...base, outcome: 'sent', sessionId: target.sessionId, detail: away ? "queued: the session's runner is away; it gets the prompt when it returns" : null }, pause: false };
    }
    // A recurring schedule's new worktree needs a branch of its own each run.
    const worktree = target.worktree && schedule.when.kind === 'cron' ? { ...target.worktree, branch: `${target.worktree.branch}-${schedule.runs + 1}` } : target.worktree;
    const spawned = await deps.remote.spawn(ns, { machineId: target.machineId, cwd: target.cwd, agent: target.agent, launchKind: target.launchKind, createDir: false, ...(worktree ? { worktree } : {}) });
    if (!spawned.ok) return { run: { ...base, outcome: 'failed', sessionId: null, detail: spawned.error }, pause: false };
    const sent = await send(spawned.session.id);
    if (!sent.ok) return { run: { ...base, outcome: 'failed', sessionId: spawned.session.id, detail: sent.error }, pause: false };
    return { run: { ...base, outcome: 'started', sessionId: spawned.session.id, detail: null }, pause: false };
  };

  /** One due run: checks, the claim, then the firing in the background (a session start takes seconds). */
  const take = async ({ namespace: ns, schedule, creatorTokenId }: DueSchedule): Promise<void> => {
    const dueAt = schedule.nextRunAt!;
    if (creatorTokenId) {
      const maker = await store.getToken({ id: creatorTokenId });
      if (!maker || maker.revokedAt !== null) {
        // Revoked through any hub (or before this one heard): what the device made goes with it.
        if (await store.deleteSchedule({ namespace: ns, id: schedule.id })) facts.publish('schedule.removed', { namespace: ns, id: schedule.id });
        return;
      }
    }
    const now = clock.now();
    const late = now - dueAt > SCHEDULE_LATE_MS;
    const plan = await planFor(deps, { ns, schedule, late });
    if (plan.kind === 'wait') return;
    // Counted from now: however many runs were missed, one is made up for.
    const nextRunAt = plan.kind === 'fail' ? null : runAfter(schedule.when, Math.max(now, dueAt));
    if (!(await store.claimScheduleRun({ namespace: ns, id: schedule.id, dueAt, nextRunAt, minGapMs: MIN_SCHEDULE_GAP_MS, now }))) return;
    const base = { dueAt, at: now, missed: late };
    if (plan.kind === 'skip') return record(ns, schedule, { ...base, outcome: 'skipped', sessionId: null, detail: plan.why }, false);
    if (plan.kind === 'fail') return record(ns, schedule, { ...base, outcome: 'failed', sessionId: null, detail: plan.why }, true);
    // Counted only once claimed (a run another hub took is not this hub's); stopped: recorded and
    // told, and the schedule has already moved on, so it is never tried again.
    const guard = await deps.guard.claim(ns);
    if (!guard.ok) return record(ns, schedule, { ...base, outcome: 'stopped', sessionId: schedule.target.kind === 'session' ? schedule.target.sessionId : null, detail: guard.text }, false);
    const work = fire(ns, schedule, base, plan.away)
      .then(({ run, pause }) => record(ns, schedule, run, pause))
      .catch((error) => deps.onError('schedule run', error))
      .finally(() => firing.delete(work));
    firing.add(work);
  };

  const tick = async () => {
    for (const due of await store.dueSchedules({ now: clock.now(), limit: DUE_PER_TICK })) {
      await take(due).catch((error) => deps.onError('schedule run', error));
    }
  };

  return {
    /** One look for due runs (a tick already under way is joined, never doubled). */
    tick(): Promise<void> {
      ticking ??= tick().finally(() => {
        ticking = null;
      });
      return ticking;
    },
    /** Runs started by ticks so far, settled (tests). */
    async settled(): Promise<void> {
      await ticking;
      await Promise.all([...firing]);
    },
    start(tickMs = SCHEDULE_TICK_MS): () => void {
      return clock.every(tickMs, () => this.tick().catch((error) => deps.onError('schedule tick', error)));
    },
  };
}
