// approvals.ts: decisions claude would ask the user for (tool permission, AskUserQuestion, plan
// approval), forwarded by the PreToolUse hook and answered from any client. First answer wins.
import { z } from 'zod';
import { RequestIdSchema, SessionIdSchema, TimestampSchema } from './ids.ts';
import { MAX_ASKER_NAME_CHARS, MAX_LABEL_CHARS } from './limits.ts';
import { DialogInputSchema } from './dialog.ts';
import { MAX_FREE_TEXT_CHARS } from './free-text.ts';
import { ElicitationAnswerSchema, ElicitationInputSchema } from './elicitation.ts';

/** `dialog`: a choice claude drew that no hook covers (dialog.ts). `elicitation`: an MCP server asks
 *  for input (claude's Elicitation hook); its `toolInput` is an ElicitationInput and its answer
 *  carries `elicitation` (elicitation.ts). */
export const RequestKindSchema = z.enum(['permission', 'question', 'plan', 'dialog', 'elicitation']);
export type RequestKind = z.infer<typeof RequestKindSchema>;

export const QuestionOptionSchema = z.object({
  label: z.string().min(1).max(MAX_LABEL_CHARS),
  description: z.string().max(4000).default(''),
  preview: z.string().max(20_000).optional(),
});
export const QuestionSchema = z.object({
  question: z.string().min(1).max(4000),
  header: z.string().max(100).default(''),
  options: z.array(QuestionOptionSchema).min(1).max(10),
  multiSelect: z.boolean().default(false),
});
export type Question = z.infer<typeof QuestionSchema>;
/** AskUserQuestion's input (claude's sdk-tools.d.ts: 1–4 questions, 2–4 options). */
export const AskUserQuestionInputSchema = z.looseObject({
  questions: z.array(QuestionSchema).min(1).max(4),
});
export type AskUserQuestionInput = z.infer<typeof AskUserQuestionInputSchema>;

/** A sub-agent's name or role as the agent gives it: one short line, no control characters. */
const AskerNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_ASKER_NAME_CHARS)
  .regex(/^[^\p{Cc}]+$/u, 'no control characters');

/** Which of the agent's workers asks, when it is not the session's own (a sub-agent): its nickname
 *  and role as the agent names them, and the first characters of its thread's id. The agent's room
 *  fills it from what the agent says about that worker; at least one field. */
export const AskedBySchema = z
  .strictObject({
    nickname: AskerNameSchema.optional(),
    role: AskerNameSchema.optional(),
    thread: z.string().regex(/^[A-Za-z0-9-]{1,12}$/, 'a short thread id: letters, digits, dashes').optional(),
  })
  .refine((who) => who.nickname !== undefined || who.role !== undefined || who.thread !== undefined, 'names nobody');
export type AskedBy = z.infer<typeof AskedBySchema>;

/** How the web names who asks: "Ada (explorer)", "explorer", or the short thread id. */
export function askedByLabel(who: AskedBy): string {
  if (who.nickname) return who.role ? `${who.nickname} (${who.role})` : who.nickname;
  return who.role ?? who.thread ?? '';
}

export const PendingRequestSchema = z
  .object({
    id: RequestIdSchema,
    sessionId: SessionIdSchema,
    kind: RequestKindSchema,
    toolName: z.string().max(200),
    toolInput: z.record(z.string(), z.unknown()),
    toolUseId: z.string().max(128).nullable(),
    createdAt: TimestampSchema,
    /** A sub-agent asks (absent: the session's own agent). */
    askedBy: AskedBySchema.optional(),
  })
  .superRefine((request, ctx) => {
    // A dialog's or an elicitation's input has its own strict shape, nothing else.
    if (request.kind === 'dialog') {
      const input = DialogInputSchema.safeParse(request.toolInput);
      if (!input.success) for (const issue of input.error.issues) ctx.addIssue({ ...issue, path: ['toolInput', ...issue.path] } as never);
    } else if (request.kind === 'elicitation') {
      const parsed = ElicitationInputSchema.safeParse(request.toolInput);
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['toolInput'], message: `not an elicitation: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
    }
  });
export type PendingRequest = z.infer<typeof PendingRequestSchema>;

/** "Allow for this session": the tool, one exact Bash command, or a Bash prefix rule (`git:*`). */
export const SessionRuleSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool') }),
  z.object({ kind: z.literal('bash-exact') }),
  z.object({ kind: z.literal('bash-prefix'), prefix: z.string().min(1).max(1000) }),
]);
export type SessionRule = z.infer<typeof SessionRuleSchema>;

export const AnswerSchema = z
  .object({
    decision: z.enum(['allow', 'deny']),
    reason: z.string().max(4000).optional(),
    sessionRule: SessionRuleSchema.optional(),
    /** AskUserQuestion: question text → answer (multi-select labels joined with ", "). */
    answers: z.record(z.string().max(4000), z.string().max(20_000)).optional(),
    /** A `permission` request allowed with the tool's input as the person edited it (Bash: the
     *  command): these fields replace claude's own. Claude runs what was allowed, not what it asked. */
    updatedInput: z.record(z.string().max(200), z.unknown()).optional(),
    /** A `plan` approved: the permission mode claude works in next, as claude's own "Yes, and
     *  auto-accept edits" (acceptEdits) or "Yes, and manually approve edits" (default). */
    planMode: z.enum(['acceptEdits', 'default']).optional(),
    /** A `dialog` request: the key of the option chosen (dialog.ts). */
    choice: z.string().max(8).optional(),
    /** A `dialog` request whose text field takes the person's words (dialog.ts `freeText`). */
    text: z.string().max(MAX_FREE_TEXT_CHARS).optional(),
    /** An elicitation's answer (decision: allow for accept, deny for decline and cancel). */
    elicitation: ElicitationAnswerSchema.optional(),
  })
  .strict()
  .refine((a) => !a.elicitation || (a.elicitation.action === 'accept') === (a.decision === 'allow'), {
    message: 'an accepted elicitation is an allow, a declined or cancelled one a deny',
  })
  .refine((a) => !a.updatedInput || a.decision === 'allow', { message: 'only an allow carries an edited input' })
  .refine((a) => !a.planMode || a.decision === 'allow', { message: 'only an approved plan sets the mode that follows' });
export type Answer = z.infer<typeof AnswerSchema>;

export const ResolutionSchema = z.object({
  requestId: RequestIdSchema,
  sessionId: SessionIdSchema,
  outcome: z.enum(['answered', 'withdrawn']),
  /** The tool the request was about, so an audit list reads without the request itself. */
  toolName: z.string().max(200).optional(),
  answer: AnswerSchema.nullable(),
  answeredBy: z.string().max(MAX_LABEL_CHARS).nullable(),
  device: z.string().max(MAX_LABEL_CHARS).nullable(),
  waitedMs: z.number().int().min(0),
  resolvedAt: TimestampSchema,
});
export type Resolution = z.infer<typeof ResolutionSchema>;

export { buildQuestionAnswers, DESK_ANSWERER, DIALOG_OUTCOME_REASON, readQuestionAnswer } from './wire.ts';

/** Runner → hub: the desk answered first. `answer: null` means the desk took the request to claude's
 *  own dialog (the decision is then made there). The ack says whether the desk won; when another
 *  client answered first, `resolution` carries that answer and the runner uses it instead. */
export const DeskAnswerSchema = z.object({
  sessionId: SessionIdSchema,
  requestId: RequestIdSchema,
  answer: AnswerSchema.nullable(),
  device: z.string().max(MAX_LABEL_CHARS).nullable().default(null),
});
export type DeskAnswer = z.input<typeof DeskAnswerSchema>;
export type DeskAnswerAck = { won: boolean; resolution: Resolution };

/** Runner → hub: how a request the desk took to claude's own dialog was decided there. The runner
 *  reads it from the transcript (the tool's result, or claude's "User rejected tool use"); the hub
 *  fills it into that request's audit entry, which said only "the desk took it to the dialog". */
export const DialogOutcomeSchema = z.object({
  sessionId: SessionIdSchema,
  requestId: RequestIdSchema,
  decision: z.enum(['allow', 'deny']),
});
export type DialogOutcome = z.input<typeof DialogOutcomeSchema>;

/** `GET /api/pending`: every waiting request of the caller's namespace. */
export type PendingList = { pending: PendingRequest[] };

export function requestKindForTool(toolName: string): RequestKind {
  if (toolName === 'AskUserQuestion') return 'question';
  if (toolName === 'ExitPlanMode') return 'plan';
  return 'permission';
}
