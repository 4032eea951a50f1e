// prompts.ts: text a remote client asks to be typed into claude. The runner types a prompt only at
// an idle, empty prompt; delivery is confirmed when the transcript shows the user line.
import { z } from 'zod';
import { PromptIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_PROMPT_CHARS } from './limits.ts';
import { AttachmentIdSchema, AttachmentRefSchema } from './attachments.ts';
import { MAX_ATTACHMENTS_PER_PROMPT } from './wire.ts';

export const PromptStatusSchema = z.enum([
  'queued', // hub has it, runner may not yet
  'waiting_for_desk', // the desk user has text in the input box; typing would clobber it
  'typing', // runner is typing it now
  'delivered', // the transcript shows it
  'returned', // aborted while in flight: give the text back to the sender's composer
  'dropped', // never typed (queued behind an aborted turn, or the session ended)
]);
export type PromptStatus = z.infer<typeof PromptStatusSchema>;

export const PromptSchema = z.object({
  id: PromptIdSchema,
  sessionId: SessionIdSchema,
  /** Empty only when the prompt carries attachments (a photo sent on its own). */
  text: z.string().max(MAX_PROMPT_CHARS),
  /** Files uploaded with it (attachments.ts); the runner places them when it delivers the prompt. */
  attachments: z.array(AttachmentRefSchema).max(MAX_ATTACHMENTS_PER_PROMPT).default([]),
  status: PromptStatusSchema,
  reason: z.string().max(1000).nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  /** When the hub handed it to the runner (null: still only the hub's, so it may be edited or
   *  withdrawn); absent from an older hub. */
  handedAt: TimestampSchema.nullable().optional(),
});
export type Prompt = z.infer<typeof PromptSchema>;

export { isHeldByHub, WITHDRAWN_REASON } from './wire.ts';

const PromptRef = { sessionId: SessionIdSchema, promptId: PromptIdSchema };
/** New text for a prompt the hub still holds (its attachments stay). */
export const PromptEditSchema = z.object({ ...PromptRef, text: z.string().max(MAX_PROMPT_CHARS) });
export type PromptEdit = z.infer<typeof PromptEditSchema>;
/** Take back a prompt the hub still holds: it is dropped with reason `withdrawn`. */
export const PromptWithdrawSchema = z.object(PromptRef);
export type PromptWithdraw = z.infer<typeof PromptWithdrawSchema>;

export const PromptSendSchema = z
  .object({
    sessionId: SessionIdSchema,
    promptId: PromptIdSchema,
    text: z.string().max(MAX_PROMPT_CHARS),
    /** Ids of attachments uploaded to this session (POST /api/sessions/:id/attachments). */
    attachments: z.array(AttachmentIdSchema).max(MAX_ATTACHMENTS_PER_PROMPT).default([]),
  })
  .refine((send) => send.text.trim() !== '' || send.attachments.length > 0, { message: 'a prompt needs text or an attachment', path: ['text'] })
  .refine((send) => new Set(send.attachments).size === send.attachments.length, { message: 'an attachment is named twice', path: ['attachments'] });
export type PromptSend = z.infer<typeof PromptSendSchema>;

export const PromptStatusUpdateSchema = z.object({
  sessionId: SessionIdSchema,
  promptId: PromptIdSchema,
  status: PromptStatusSchema.exclude(['queued']),
  reason: z.string().max(1000).nullable().default(null),
});
export type PromptStatusUpdate = z.input<typeof PromptStatusUpdateSchema>;
