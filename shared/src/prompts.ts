// prompts.ts: text a remote client asks to be typed into claude. The runner types a prompt only at
// an idle, empty prompt; delivery is confirmed when the transcript shows the user line.
import { z } from 'zod';
import { PromptIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_PROMPT_CHARS } from './limits.ts';

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
  text: z.string().min(1).max(MAX_PROMPT_CHARS),
  status: PromptStatusSchema,
  reason: z.string().max(1000).nullable(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Prompt = z.infer<typeof PromptSchema>;

export const PromptSendSchema = z.object({
  sessionId: SessionIdSchema,
  promptId: PromptIdSchema,
  text: z.string().min(1).max(MAX_PROMPT_CHARS),
});
export type PromptSend = z.infer<typeof PromptSendSchema>;

export const PromptStatusUpdateSchema = z.object({
  sessionId: SessionIdSchema,
  promptId: PromptIdSchema,
  status: PromptStatusSchema.exclude(['queued']),
  reason: z.string().max(1000).nullable().default(null),
});
export type PromptStatusUpdate = z.input<typeof PromptStatusUpdateSchema>;
