// dialog.ts: a choice claude draws on its screen that no hook reports ("Switch model?", "New MCP
// server found", folder trust, the bypass-permissions warning…). The PTY runner reads it from its
// screen model and asks the hub as a `dialog` request; the answer names the option to press.
//
//   request.toolInput = DialogInput {title, text: the dialog's lines as drawn, options: [{key, label}]}
//   answer            = {decision: 'allow', choice: <an option's key>}
//
// `key` is the option's number (1-based, top to bottom): the digit claude takes where its options are
// numbered; where they are not, the runner moves claude's cursor to that option and presses Enter.
import { z } from 'zod';

/** toolName of every dialog request (the request's kind says `dialog`; this keeps lists readable). */
export const DIALOG_TOOL_NAME = 'Dialog';
export const MAX_DIALOG_OPTIONS = 9;
export const MAX_DIALOG_LINES = 60;
export const MAX_DIALOG_LINE_CHARS = 400;

export const DialogOptionSchema = z
  .object({
    key: z.string().regex(/^[1-9]$/, 'an option key is its number, 1 to 9'),
    label: z.string().min(1).max(MAX_DIALOG_LINE_CHARS),
    /** The rows claude draws under the option's first line, joined: the rest of a wrapped label, or
     *  the option's description. */
    detail: z.string().min(1).max(MAX_DIALOG_LINE_CHARS).optional(),
  })
  .strict();
export type DialogOption = z.infer<typeof DialogOptionSchema>;

export const DialogInputSchema = z
  .object({
    title: z.string().min(1).max(MAX_DIALOG_LINE_CHARS),
    text: z.array(z.string().max(MAX_DIALOG_LINE_CHARS)).max(MAX_DIALOG_LINES),
    options: z
      .array(DialogOptionSchema)
      .min(2)
      .max(MAX_DIALOG_OPTIONS)
      .refine((options) => new Set(options.map((o) => o.key)).size === options.length, 'option keys must differ'),
    /** A key was pressed at the desk just before the dialog came up (a picker the desk opened, or
     *  claude's answer to a command typed there): someone is at the desk. The phone still shows it
     *  and may answer; the hub sends no push for it. */
    openedAtDesk: z.boolean().optional(),
  })
  .strict();
export type DialogInput = z.infer<typeof DialogInputSchema>;

/** Why an answer cannot be pressed for this dialog, or null when it names one of its options. */
export function dialogAnswerProblem(input: DialogInput, answer: { decision: string; choice?: string | undefined }): string | null {
  if (answer.decision !== 'allow' || answer.choice === undefined) return 'a dialog is answered by choosing one of its options';
  if (!input.options.some((option) => option.key === answer.choice)) return `the dialog has no option ${JSON.stringify(answer.choice)}`;
  return null;
}
