// chat.ts: the structured chat rebuilt from claude's JSONL transcript.
// A message's id is the transcript line's uuid, so re-sending a line is a no-op on the hub.
// `seq` is assigned by the hub, per session, strictly increasing: viewers backfill by it.
import { z } from 'zod';
import { MessageIdSchema, PromptIdSchema, SeqSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { OffsetSchema, TerminalRunSchema } from './terminal.ts';

/** Where a tool call happened in its session's terminal (PTY sessions only): the PTY byte offsets
 *  (terminal.ts) when claude started the call and, once known, when it finished. `run` names the
 *  runner's PTY: a resumed session gets a new terminal whose offsets start at 0 again, so a moment
 *  of another run is never looked up in this one. */
export const TerminalMomentSchema = z
  .object({ run: TerminalRunSchema, start: OffsetSchema, end: OffsetSchema.optional() })
  .refine((moment) => moment.end === undefined || moment.end >= moment.start, 'a tool call cannot end before it started');
export type TerminalMoment = z.infer<typeof TerminalMomentSchema>;

export const TextBlockSchema = z.object({ type: z.literal('text'), text: z.string() });
export const ThinkingBlockSchema = z.object({ type: z.literal('thinking'), text: z.string() });
export const ToolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string().max(128),
  name: z.string().max(200),
  input: z.unknown(),
  terminalOffset: TerminalMomentSchema.optional(),
});
export const ToolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  toolUseId: z.string().max(128),
  content: z.string(),
  isError: z.boolean(),
  /** claude's structured `toolUseResult` (e.g. AskUserQuestion answers), when it had one. */
  structured: z.unknown().optional(),
  /** The whole call (start and end), stamped when the result was read. */
  terminalOffset: TerminalMomentSchema.optional(),
});
/** The turn was interrupted (Esc), or a tool call was rejected. */
export const InterruptBlockSchema = z.object({
  type: z.literal('interrupt'),
  text: z.string(),
});

export const ContentBlockSchema = z.discriminatedUnion('type', [
  TextBlockSchema,
  ThinkingBlockSchema,
  ToolUseBlockSchema,
  ToolResultBlockSchema,
  InterruptBlockSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;
export type ToolUseBlock = z.infer<typeof ToolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof ToolResultBlockSchema>;

export const ChatRoleSchema = z.enum(['user', 'assistant', 'system']);
export type ChatRole = z.infer<typeof ChatRoleSchema>;

/** A chat message as the runner produces it (no seq yet). */
export const ChatMessageInputSchema = z.object({
  id: MessageIdSchema,
  role: ChatRoleSchema,
  content: z.array(ContentBlockSchema).max(100),
  createdAt: TimestampSchema,
  /** Subagent (sidechain) activity, grouped by agent id in the UI. */
  sidechain: z.boolean().default(false),
  agentId: z.string().max(128).nullable().default(null),
  /** Set when this user message is a prompt that a remote client queued (confirms delivery). */
  promptId: PromptIdSchema.nullable().default(null),
  /** claude's session id of the transcript it came from (changes on /clear). */
  agentSessionId: z.string().max(128).nullable().default(null),
});
export type ChatMessageInput = z.input<typeof ChatMessageInputSchema>;

export const ChatMessageSchema = ChatMessageInputSchema.extend({
  sessionId: SessionIdSchema,
  seq: SeqSchema,
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;
