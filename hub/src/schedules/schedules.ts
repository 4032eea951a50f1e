// schedules.ts: the schedules room's face to the edges (shared schedules.ts): make, list, change,
// pause and remove a namespace's scheduled prompts. What it checks before anything is stored: the
// timing (firstRunOf: a cron that never fires or runs more often than every five minutes, a time in
// the past), the target (a live session of this namespace, or a machine of it that has the agent).
// Firing is runs.ts's.
//
//   web / `tether schedule` ─schedule:*─► here ─► store ─► schedule.updated / schedule.removed ─► tabs
//
// Invariants: every lookup is in the caller's namespace (another's schedule, session or machine is
// `not_found`); a schedule remembers the token that made it, and goes when that token is revoked.
import { z } from 'zod';
import {
  ackError,
  firstRunOf,
  isFinalStatus,
  MAX_SCHEDULES_PER_NAMESPACE,
  type Ack,
  type Namespace,
  type Schedule,
  type ScheduleCreateSchema,
  type ScheduleTarget,
  type ScheduleUpdateSchema,
  type WebAcks,
} from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';
import type { Sessions } from '../sessions/lifecycle.ts';
import type { Machines } from '../machines/machines.ts';
import type { Clock } from './clock.ts';

const NO_SCHEDULE = 'no such schedule';

/** Who asks: the schedule dies with this token (a paired device's, or the one a login used). */
export type Maker = { tokenId: string; label: string };

type Deps = { store: Store; facts: FactBus; sessions: Pick<Sessions, 'get'>; machines: Pick<Machines, 'find'>; clock: Clock };
export type Schedules = ReturnType<typeof createSchedules>;

/** Why `target` cannot get prompts in `ns`, or null. */
async function targetRefusal(deps: Deps, ns: Namespace, target: ScheduleTarget): Promise<Ack<never> | null> {
  if (target.kind === 'session') {
    const session = await deps.sessions.get(ns, target.sessionId);
    if (!session) return ackError('not_found', 'no such session');
    if (isFinalStatus(session.status)) return ackError('gone', 'that session has ended: schedule a new session in its folder instead');
    return null;
  }
  const machine = await deps.machines.find(ns, target.machineId);
  if (!machine) return ackError('not_found', 'no such machine: start tether daemon there');
  if (!machine.agents.includes(target.agent)) return ackError('bad_request', `machine "${machine.name}" has no ${target.agent} (it has: ${machine.agents.join(', ') || 'none'})`);
  if (!target.cwd.startsWith('/') && !target.cwd.startsWith('~')) return ackError('bad_request', 'the folder must be an absolute path (or start with ~)');
  return null;
}

export function createSchedules(deps: Deps) {
  const { store, facts, clock } = deps;
  const updated = (ns: Namespace, schedule: Schedule) => facts.publish('schedule.updated', { namespace: ns, schedule });

  return {
    async create(ns: Namespace, request: z.output<typeof ScheduleCreateSchema>, maker: Maker): Promise<Ack<WebAcks['schedule:create']>> {
      const existing = await store.getSchedule({ namespace: ns, id: request.id });
      if (existing) return { ok: true, schedule: existing };
      const now = clock.now();
      const first = firstRunOf(request.when, now);
      if ('error' in first) return ackError('bad_request', first.error);
      const refused = await targetRefusal(deps, ns, request.target);
      if (refused) return refused;
      const schedule: Schedule = { ...request, paused: false, nextRunAt: first.at, lastRun: null, runs: 0, createdBy: maker.label, createdAt: now, updatedAt: now };
      const added = await store.addSchedule({ namespace: ns, schedule, creatorTokenId: maker.tokenId, max: MAX_SCHEDULES_PER_NAMESPACE });
      if (added.kind === 'full') return ackError('conflict', `a namespace keeps at most ${MAX_SCHEDULES_PER_NAMESPACE} schedules: remove one first`);
      if (added.kind === 'taken') return ackError('conflict', 'that schedule id is taken: make a new one');
      updated(ns, added.schedule);
      return { ok: true, schedule: added.schedule };
    },
    async list(ns: Namespace): Promise<Ack<WebAcks['schedule:list']>> {
      return { ok: true, schedules: await store.listSchedules({ namespace: ns }) };
    },
    /** A change of timing counts the next run from now; unpausing does too (what was missed while
     *  paused is not run). */
    async update(ns: Namespace, request: z.output<typeof ScheduleUpdateSchema>): Promise<Ack<WebAcks['schedule:update']>> {
      const current = await store.getSchedule({ namespace: ns, id: request.id });
      if (!current) return ackError('not_found', NO_SCHEDULE);
      const when = request.when ?? current.when;
      const paused = request.paused ?? current.paused;
      const recount = request.when !== undefined || (current.paused && !paused);
      let nextRunAt = paused ? null : current.nextRunAt;
      if (!paused && recount) {
        const first = firstRunOf(when, clock.now());
        if ('error' in first) return ackError('bad_request', first.error);
        nextRunAt = first.at;
      }
      const change = { when, prompt: request.prompt ?? current.prompt, missed: request.missed ?? current.missed, paused, nextRunAt };
      const schedule = await store.changeSchedule({ namespace: ns, id: request.id, change, now: clock.now() });
      if (!schedule) return ackError('not_found', NO_SCHEDULE);
      updated(ns, schedule);
      return { ok: true, schedule };
    },
    async remove(ns: Namespace, id: string): Promise<Ack<WebAcks['schedule:remove']>> {
      if (!(await store.deleteSchedule({ namespace: ns, id }))) return ackError('not_found', NO_SCHEDULE);
      facts.publish('schedule.removed', { namespace: ns, id });
      return { ok: true };
    },
    /** Tokens revoked (a device signed out or removed): what they made goes with them. */
    async tokensRevoked(tokenIds: readonly string[]): Promise<void> {
      for (const gone of await store.deleteSchedulesByTokens({ tokenIds })) facts.publish('schedule.removed', { namespace: gone.namespace, id: gone.id });
    },
  };
}
