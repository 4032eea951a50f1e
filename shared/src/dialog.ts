// dialog.ts: a choice claude draws on its screen that no hook reports ("Switch model?", "New MCP
// server found", folder trust, the bypass-permissions warning…). The PTY runner reads it from its
// screen model and asks the hub as a `dialog` request; the answer names the option to press.
//
//   request.toolInput = DialogInput {title, text: the dialog's lines as drawn, options: [{key, label}],
//                       headline?: the question it asks, about?: the file or command it is about,
//                       freeText?: the option that is a text field (or none: the dialog is one)}
//   answer            = {decision: 'allow', choice: <an option's key>}
//                       {decision: 'allow', choice?: freeText.key, text: <the person's words>}
//
// `key` is the option's number (1-based, top to bottom): the digit claude takes where its options are
// numbered; where they are not, the runner moves claude's cursor to that option and presses Enter.
import { z } from 'zod';
import { cleanFreeText, MAX_FREE_TEXT_CHARS } from './free-text.ts';

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

/** What a dialog is about, as the agent draws it: the file it reads or writes, the command it runs. */
export const DialogAboutSchema = z.strictObject({
  kind: z.enum(['file', 'command']),
  text: z.string().min(1).max(MAX_DIALOG_LINE_CHARS),
});
export type DialogAbout = z.infer<typeof DialogAboutSchema>;

/** A text field in the dialog: option `key`'s (its label is the field: "Enter a custom value"); a
 *  note that goes with whichever option is chosen (`notes`: Codex's questions); or, neither, the
 *  dialog's only answer (a text question). `maxChars`: the agent's limit (free-text.ts). */
export const DialogFreeTextSchema = z.strictObject({
  key: z.string().regex(/^[1-9]$/).optional(),
  notes: z.literal(true).optional(),
  maxChars: z.number().int().min(1).max(MAX_FREE_TEXT_CHARS),
  placeholder: z.string().min(1).max(MAX_DIALOG_LINE_CHARS).optional(),
});
export type DialogFreeText = z.infer<typeof DialogFreeTextSchema>;

export const DialogInputSchema = z
  .object({
    title: z.string().min(1).max(MAX_DIALOG_LINE_CHARS),
    text: z.array(z.string().max(MAX_DIALOG_LINE_CHARS)).max(MAX_DIALOG_LINES),
    options: z
      .array(DialogOptionSchema)
      .max(MAX_DIALOG_OPTIONS)
      .refine((options) => new Set(options.map((o) => o.key)).size === options.length, 'option keys must differ'),
    /** The question the dialog asks, when its title is not it (Gemini's "Answer Questions" box,
     *  a tool dialog whose title names the tool). */
    headline: z.string().min(1).max(MAX_DIALOG_LINE_CHARS).optional(),
    about: DialogAboutSchema.optional(),
    freeText: DialogFreeTextSchema.optional(),
    /** Why the person's last answer to this dialog was not typed (it is asked again). */
    notice: z.string().min(1).max(MAX_DIALOG_LINE_CHARS).optional(),
    /** A key was pressed at the desk just before the dialog came up (a picker the desk opened, or
     *  claude's answer to a command typed there): someone is at the desk. The phone still shows it
     *  and may answer; the hub sends no push for it. */
    openedAtDesk: z.boolean().optional(),
  })
  .strict()
  .refine((input) => input.options.length >= 2 || (input.options.length === 0 && input.freeText !== undefined && input.freeText.key === undefined && !input.freeText.notes), {
    message: 'a dialog offers two options or more, or is one text field',
  })
  .refine((input) => input.freeText?.key === undefined || input.options.some((o) => o.key === input.freeText!.key), {
    message: 'the text field is one of the options',
  })
  .refine((input) => !(input.freeText?.key !== undefined && input.freeText.notes), { message: 'a note goes with any option, not one' });
export type DialogInput = z.infer<typeof DialogInputSchema>;

/** Why an answer cannot be given to this dialog, or null when it names one of its options or
 *  carries words its text field takes. */
export function dialogAnswerProblem(input: DialogInput, answer: { decision: string; choice?: string | undefined; text?: string | undefined }): string | null {
  if (answer.decision !== 'allow') return 'a dialog is answered by choosing one of its options';
  const field = input.freeText;
  if (answer.text !== undefined) {
    if (!field) return 'this dialog takes no typed answer: choose one of its options';
    if (field.notes) {
      if (answer.choice === undefined) return 'a note goes with an option: choose one';
      if (!input.options.some((option) => option.key === answer.choice)) return `the dialog has no option ${JSON.stringify(answer.choice)}`;
    } else if (answer.choice !== undefined && answer.choice !== field.key) return `only option ${field.key ?? '(none)'} takes a typed answer`;
    const typed = cleanFreeText(answer.text);
    if (typed === '') return 'the typed answer is empty';
    if (typed.length > field.maxChars) return `the typed answer has ${typed.length} characters; this field takes at most ${field.maxChars}`;
    return null;
  }
  if (field && !field.notes && (field.key === undefined || answer.choice === field.key)) return 'this answer is typed: send its text';
  if (answer.choice === undefined) return 'a dialog is answered by choosing one of its options';
  if (!input.options.some((option) => option.key === answer.choice)) return `the dialog has no option ${JSON.stringify(answer.choice)}`;
  return null;
}
