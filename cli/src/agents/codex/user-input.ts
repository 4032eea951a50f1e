// user-input.ts: Codex's `request_user_input` tool (its app server's `item/tool/requestUserInput`,
// experimental: 1–3 questions, each with options, and a free "Other" the client adds) put to the
// phone as a question, and the person's picks sent back as Codex's answers by question id.
// Shapes from `codex app-server generate-ts` (0.171.0): ToolRequestUserInputParams/-Response.
//
// Refused (Codex reads an error, nobody is asked): a question with no options (nothing to pick
// from on the phone yet) and a secret one (its answer would travel through the hub and its audit).
import { AskUserQuestionInputSchema, readQuestionAnswer, type AskUserQuestionInput } from '@tether/shared';
import { z } from 'zod';
import type { Verdict } from '../verdict.ts';

const UserInputParamsSchema = z.object({
  questions: z
    .array(
      z.object({
        id: z.string().min(1).max(200),
        header: z.string().max(1000),
        question: z.string().min(1).max(4000),
        isOther: z.boolean(),
        isSecret: z.boolean(),
        options: z.array(z.object({ label: z.string(), description: z.string() })).nullable(),
      }),
    )
    .min(1),
});
type UserInputParams = z.infer<typeof UserInputParamsSchema>;
export type UserInputAnswers = { answers: Record<string, { answers: string[] }> };

export type UserInputAsked = { ok: true; toolName: 'AskUserQuestion'; toolInput: AskUserQuestionInput; params: UserInputParams } | { ok: false; why: string };

/** The question Codex asks, as the phone asks it (claude's AskUserQuestion shape), or why not. */
export function userInputQuestion(params: unknown): UserInputAsked {
  const parsed = UserInputParamsSchema.safeParse(params);
  if (!parsed.success) return { ok: false, why: 'the questions were not in the shape tether reads' };
  if (parsed.data.questions.some((q) => q.isSecret)) return { ok: false, why: 'a secret answer is not asked through the hub: answer it at the desk' };
  if (parsed.data.questions.some((q) => !q.options || q.options.length === 0)) return { ok: false, why: 'a question with no options to pick cannot be asked on the phone yet' };
  const input = AskUserQuestionInputSchema.safeParse({
    questions: parsed.data.questions.map((q) => ({
      question: q.question,
      header: q.header.slice(0, 100),
      options: q.options!.map((o) => ({ label: o.label, description: o.description })),
      multiSelect: false,
    })),
  });
  if (!input.success) return { ok: false, why: 'the questions are larger than the phone shows' };
  return { ok: true, toolName: 'AskUserQuestion', toolInput: input.data, params: parsed.data };
}

/** The person's answer in Codex's words: per question id, the option picked and any words of their
 *  own ("Other"); null when they declined (Codex is then told no). */
export function userInputAnswers(params: UserInputParams, verdict: Verdict | null): UserInputAnswers | null {
  if (!verdict || verdict.behavior !== 'allow') return null;
  const given = (verdict.updatedInput?.answers ?? {}) as Record<string, unknown>;
  const answers: UserInputAnswers['answers'] = {};
  for (const q of params.questions) {
    const said = given[q.question];
    if (typeof said !== 'string') return null;
    const { chosen, other } = readQuestionAnswer({ options: q.options ?? [] }, said);
    answers[q.id] = { answers: [...chosen, ...(other ? [other] : [])] };
  }
  return { answers };
}
