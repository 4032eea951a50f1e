// limit-continue.ts: what tether sends a session at its usage limit's reset, if anything (usage-
// limit.ts): the person's choice for one session, or the namespace's default for a session with none
// (unattended.ts keeps it beside the guard). Apart from both so that each can name it without the
// two importing each other.
import { z } from 'zod';

// The prompt tether sends at the reset unless the person chose another: with the zod-free names, since
// the list's first load draws it.
export { DEFAULT_CONTINUE_PROMPT } from './wire.ts';
export const MAX_CONTINUE_PROMPT_CHARS = 2_000;

/** Continue at the reset with `prompt`, or not: a session's own choice, or the namespace's default. */
export const LimitContinueSchema = z
  .object({
    on: z.boolean(),
    prompt: z.string().trim().min(1).max(MAX_CONTINUE_PROMPT_CHARS),
  })
  .strict();
export type LimitContinue = z.infer<typeof LimitContinueSchema>;
