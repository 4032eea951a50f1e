// usage-limit.ts: an agent stopped at its usage limit until a stated time, and what the person chose
// to happen at that time (docs/decisions/usage-limits.md).
//
//   the agent's transcript ─► its room reads {resetsAt} ─► runner patch `limit` ─► hub (store, the
//   continue-at-reset rule: one continue per reset) ─► Session.limit ─► phone banner
import { z } from 'zod';
import { SessionIdSchema, TimestampSchema } from './ids.ts';
import { GuardStopSchema } from './unattended.ts';
import { LimitContinueSchema } from './limit-continue.ts';

// The list's badge and the session's banner (first load) draw these: they live with the zod-free names.
export { limitWaitText } from './wire.ts';

/** What a runner reports: its agent said it is at its usage limit until `resetsAt` (epoch ms). */
export const UsageLimitReportSchema = z.object({ resetsAt: TimestampSchema }).strict();
export type UsageLimitReport = z.infer<typeof UsageLimitReportSchema>;

/** The limit as the hub shows it on the session: the report; whether the agent waits and goes on by
 *  itself at the reset (its capabilities' `waitsOutLimitIn` names the session's launch kind: claude
 *  in its terminal from 2.1.332), when tether only tells the person unless the agent is still stopped
 *  well after the reset (it exited or relaunched during the wait); and whether tether already sent
 *  its one continue for this reset, or the unattended guard held that continue (`held`: paused, or
 *  the day's cap reached; not retried for this reset). */
export const UsageLimitSchema = UsageLimitReportSchema.extend({
  agentResumes: z.boolean(),
  continued: z.boolean(),
  held: GuardStopSchema.nullable().default(null),
}).strict();
export type UsageLimit = z.infer<typeof UsageLimitSchema>;

/** Web `session:limit-continue`: set the choice for a session (null: back to the namespace's
 *  default, unattended.ts). */
export const SessionLimitContinueSchema = z
  .object({
    sessionId: SessionIdSchema,
    choice: LimitContinueSchema.nullable(),
  })
  .strict();
export type SessionLimitContinue = z.infer<typeof SessionLimitContinueSchema>;
