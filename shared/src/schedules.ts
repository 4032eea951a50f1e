// schedules.ts: prompts sent later, once or on a cron (issue 42). A schedule is kept by the hub and
// fired by whichever hub claims its run first (one conditional UPDATE in the store), into a live
// session (its prompt queue: held while the runner is away) or a new session on a machine (its
// daemon, as the new-session form starts one). Every run is reported on the schedule (`lastRun`)
// and pushed: nobody is at the desk.
//
//   web / `tether schedule` ─schedule:create─► hub (checks below) ─► store
//   hub's clock ─► due? ─► claim (store) ─► prompt:send | session:spawn + prompt ─► schedule:updated
//
// Invariants: a schedule runs at most once per MIN_SCHEDULE_GAP_MS; a run missed while the hub was
// down or the machine away runs once when it can (or is skipped: `missed`), never once per missed
// time; a schedule dies with the device (token) that made it.
import { z } from 'zod';
import { MachineIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_PATH_CHARS, MAX_PROMPT_CHARS } from './limits.ts';
import { AgentKindSchema, LaunchKindSchema } from './agent-terms.ts';
import { SpawnWorktreeSchema } from './worktrees.ts';
import { CronError, isTimeZone, neverFires, nextRun, parseCron, shortestGap } from './cron.ts';

/** At most one run per five minutes (issue 42): unattended work spends quota. */
export const MIN_SCHEDULE_GAP_MS = 5 * 60_000;
/** A one-time schedule at most this far ahead. */
export const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;
/** A run this late (the hub was down, the machine away) is a missed one: reported as such. */
export const SCHEDULE_LATE_MS = 2 * 60_000;
export const MAX_SCHEDULES_PER_NAMESPACE = 200;
export const MAX_CRON_CHARS = 200;

const UuidSchema = SessionIdSchema;
export const ScheduleIdSchema = UuidSchema;

export const ScheduleWhenSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('once'), at: TimestampSchema }),
  z.object({
    kind: z.literal('cron'),
    expression: z.string().min(1).max(MAX_CRON_CHARS),
    /** An IANA zone name ("Europe/Berlin"); the person's own by default on the phone and the CLI. */
    timeZone: z.string().min(1).max(64).refine(isTimeZone, 'not a time zone this hub knows (an IANA name such as Europe/Berlin)'),
  }),
]);
export type ScheduleWhen = z.infer<typeof ScheduleWhenSchema>;

/** Where the prompt goes: a session that is running, or a new session in a folder on a machine. */
export const ScheduleTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('session'), sessionId: SessionIdSchema }),
  z.object({
    kind: z.literal('new'),
    machineId: MachineIdSchema,
    cwd: z.string().min(1).max(MAX_PATH_CHARS),
    agent: AgentKindSchema.default('claude'),
    launchKind: LaunchKindSchema.default('headless'),
    worktree: SpawnWorktreeSchema.optional(),
  }),
]);
export type ScheduleTarget = z.infer<typeof ScheduleTargetSchema>;

/** What a run missed while the hub was down or the machine away becomes: run once when it can, or skip. */
export const MissedRunSchema = z.enum(['run', 'skip']);
export type MissedRun = z.infer<typeof MissedRunSchema>;

/** sent: the prompt is in the session's queue · started: a new session got it · skipped: missed and
 *  the person chose skip · failed: it could not run (`detail` says why) · stopped: the unattended
 *  guard held it (everything paused, or the day's cap reached: unattended.ts); not retried. */
export const ScheduleOutcomeSchema = z.enum(['sent', 'started', 'skipped', 'failed', 'stopped']);
export const ScheduleRunSchema = z.object({
  /** When it was due. */
  dueAt: TimestampSchema,
  /** When it ran (or was skipped / failed). */
  at: TimestampSchema,
  outcome: ScheduleOutcomeSchema,
  /** It ran late: the hub was down or the machine away when it was due. */
  missed: z.boolean(),
  /** The session it went to. */
  sessionId: SessionIdSchema.nullable(),
  detail: z.string().max(1000).nullable(),
});
export type ScheduleRun = z.infer<typeof ScheduleRunSchema>;

const PromptText = z.string().min(1).max(MAX_PROMPT_CHARS).refine((t) => t.trim() !== '', 'the prompt is empty');

export const ScheduleSchema = z.object({
  id: ScheduleIdSchema,
  target: ScheduleTargetSchema,
  when: ScheduleWhenSchema,
  prompt: z.string().max(MAX_PROMPT_CHARS),
  missed: MissedRunSchema,
  paused: z.boolean(),
  /** The next run (null: a one-time schedule that ran, or a paused one). */
  nextRunAt: TimestampSchema.nullable(),
  lastRun: ScheduleRunSchema.nullable(),
  runs: z.number().int().min(0),
  /** Who made it (the device's or token's label). */
  createdBy: z.string().max(200),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Schedule = z.infer<typeof ScheduleSchema>;

export const ScheduleCreateSchema = z.object({
  /** Made by the client: a resend is the same schedule. */
  id: ScheduleIdSchema,
  target: ScheduleTargetSchema,
  when: ScheduleWhenSchema,
  prompt: PromptText,
  missed: MissedRunSchema.default('run'),
});
export type ScheduleCreate = z.input<typeof ScheduleCreateSchema>;

export const ScheduleUpdateSchema = z.object({
  id: ScheduleIdSchema,
  when: ScheduleWhenSchema.optional(),
  prompt: PromptText.optional(),
  missed: MissedRunSchema.optional(),
  paused: z.boolean().optional(),
});
export type ScheduleUpdate = z.input<typeof ScheduleUpdateSchema>;
export const ScheduleRefSchema = z.object({ id: ScheduleIdSchema });

/** The first run of `when` after `now`, or why it cannot be a schedule: a cron that never fires or
 *  runs more often than every five minutes, a time in the past or too far ahead. The hub, the phone
 *  and the CLI all ask this. */
export function firstRunOf(when: ScheduleWhen, now: number): { at: number } | { error: string } {
  if (when.kind === 'once') {
    if (when.at <= now) return { error: `that time is in the past (${new Date(when.at).toISOString()}): pick a later one` };
    if (when.at - now > MAX_SCHEDULE_AHEAD_MS) return { error: 'that time is more than a year ahead' };
    return { at: when.at };
  }
  try {
    const cron = parseCron(when.expression);
    const never = neverFires(cron);
    if (never) return { error: never };
    const gap = shortestGap(cron);
    if (gap.minutes * 60_000 < MIN_SCHEDULE_GAP_MS) {
      return { error: `it runs more often than every ${MIN_SCHEDULE_GAP_MS / 60_000} minutes (${gap.from} and ${gap.to} are ${gap.minutes} min apart)` };
    }
    const at = nextRun(cron, { after: now, timeZone: when.timeZone });
    return at === null ? { error: 'it never fires' } : { at };
  } catch (error) {
    if (error instanceof CronError) return { error: error.message };
    throw error;
  }
}

/** The run after one at `after` (null: none, a one-time schedule). */
export function runAfter(when: ScheduleWhen, after: number): number | null {
  if (when.kind === 'once') return null;
  return nextRun(parseCron(when.expression), { after, timeZone: when.timeZone });
}
