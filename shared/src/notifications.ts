// notifications.ts: claude's Notification hook, as the runner forwards it to the hub. Its
// `notification_type` says what claude is telling the user; the rule for which types mean "a person
// is needed now" (status waiting, a push) lives here once.
//
// Types seen in claude 2.1.330's binary and its hooks docs: permission_prompt, elicitation_dialog,
// elicitation_url_dialog, agent_needs_input, worker_permission_prompt (a person is needed);
// idle_prompt, auth_success, auth_storage_failure, elicitation_complete, elicitation_response,
// agent_completed, computer_use_enter/exit, plugin_notification, push_notification (not).
import { z } from 'zod';
import { SessionIdSchema } from './ids.ts';

/** Types that mean claude is blocked on a person. */
const NEEDS_PERSON = new Set(['permission_prompt', 'worker_permission_prompt', 'elicitation_dialog', 'elicitation_url_dialog', 'agent_needs_input']);

/** True when claude waits for a person. A type claude adds later counts when its name says so (a
 *  `…_dialog` or `…_permission_prompt`, or "needs input"); `idle_prompt` ("waiting for your next
 *  message") never does: that is the turn-ended push's job, not a blocked session. */
export function notificationNeedsPerson(type: string): boolean {
  if (NEEDS_PERSON.has(type)) return true;
  if (type === 'idle_prompt') return false;
  return /(^|_)(dialog|permission_prompt|needs_input)$/.test(type);
}

/** Runner → hub: claude says a person is needed (only those are sent). */
export const SessionAttentionSchema = z.object({
  sessionId: SessionIdSchema,
  notificationType: z.string().min(1).max(100),
  message: z.string().max(1000).default(''),
});
export type SessionAttention = z.input<typeof SessionAttentionSchema>;
