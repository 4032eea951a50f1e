// unattended.ts: the guard on work that runs while nobody is at the desk (issue 42, item 5): a
// schedule's run and a usage-limit continue. Per namespace: a cap on such runs per day and a switch
// that pauses them all. A run the guard stops is recorded where it would have gone (the schedule's
// last run, the session's limit) and pushed; it is never retried (the schedule moves on, the reset
// counts as continued).
//
//   schedule run / limit continue ─► hub unattended/ (the store's claim: counted once, any hub)
//      allowed ─► the prompt as before      stopped ─► recorded, pushed (GuardStop)
//
// Beside the guard, the namespace's default for a session at its usage limit that has no choice of
// its own (issue 42, item 1: "or by default in settings"): continue it at the reset, with which
// prompt. Until the person chooses, the hub's own default (`tether hub --continue-at-reset`) stands.
import { z } from 'zod';
import { LimitContinueSchema } from './limit-continue.ts';

/** Unattended runs a namespace makes a day unless the person chose another number. */
export const DEFAULT_UNATTENDED_DAILY_CAP = 20;
export const MAX_UNATTENDED_DAILY_CAP = 1_000;

/** What the guard says, as the hub keeps it. `day` is the UTC day `runsToday` counts (YYYY-MM-DD).
 *  `limitContinue`: what a session at its usage limit with no choice of its own gets at the reset. */
export const UnattendedGuardSchema = z
  .object({
    paused: z.boolean(),
    dailyCap: z.number().int().min(0).max(MAX_UNATTENDED_DAILY_CAP),
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    runsToday: z.number().int().min(0),
    limitContinue: LimitContinueSchema,
  })
  .strict();
export type UnattendedGuard = z.infer<typeof UnattendedGuardSchema>;

/** A change of the continue default: on or off, with a new prompt or the one kept. */
export const LimitContinueChangeSchema = LimitContinueSchema.partial({ prompt: true });
export type LimitContinueChange = z.infer<typeof LimitContinueChangeSchema>;

/** Web `unattended:set`: pause or resume everything unattended, change the cap (0: none run), or the
 *  namespace's continue-at-reset default (the prompt validated as a session's own). */
export const UnattendedSetSchema = z
  .object({
    paused: z.boolean().optional(),
    dailyCap: z.number().int().min(0).max(MAX_UNATTENDED_DAILY_CAP).optional(),
    limitContinue: LimitContinueChangeSchema.optional(),
  })
  .strict()
  .refine((s) => s.paused !== undefined || s.dailyCap !== undefined || s.limitContinue !== undefined, 'nothing to change: give paused, dailyCap or limitContinue');
export type UnattendedSet = z.infer<typeof UnattendedSetSchema>;

/** Why the guard stopped a run. */
export const GuardStopSchema = z.enum(['paused', 'cap']);
export type GuardStop = z.infer<typeof GuardStopSchema>;

/** The UTC day a time falls on: the cap counts per UTC day (a hub cluster agrees on it; a person's
 *  zone would make two hubs in two zones count two days). */
export function guardDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** Runs counted today, as the person reads them: a count of another day is today's 0. */
export function runsToday(guard: UnattendedGuard, now: number): number {
  return guard.day === guardDay(now) ? guard.runsToday : 0;
}

/** The words a stopped run is recorded and pushed with. */
export function guardStopText(stop: GuardStop, dailyCap: number): string {
  return stop === 'paused'
    ? 'not run: everything unattended is paused'
    : `not run: the daily cap of ${dailyCap} unattended run${dailyCap === 1 ? '' : 's'} was reached (resets at 00:00 UTC)`;
}

// Zod-free for the session list's first load (web limit banner): it lives in wire.ts.
export { guardStopShort } from './wire.ts';
