// answer.ts: whether an answer fits the request it answers, checked before the store resolves it
// (approvals.ts: first answer wins there). The resolution records who (token label), from which
// device, and how long claude waited.
import { dialogAnswerProblem, DialogInputSchema, FREE_TEXT_MAX_CHARS, elicitationAnswerProblem, ElicitationInputSchema, type Answer, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';

/** Why `answer` cannot answer this waiting request, or null. A `dialog` is answered by one of its
 *  options (the runner presses that option's key) and nothing else takes a `choice`; an
 *  `elicitation` (an MCP form) is accepted only with content that fits its requested schema, by the
 *  runner's own check. Either answer would otherwise resolve the request on every phone while the
 *  runner drops it and claude still waits at the desk. The request is read by its id (one row, on the
 *  answer's way to the runner), its session only for a dialog's agent. */
export async function answerProblem(options: { store: Store; namespace: Namespace; requestId: string; answer: Answer }): Promise<string | null> {
  const { store, namespace } = options;
  const request = await store.getPending({ namespace, requestId: options.requestId });
  if (!request) return null; // not waiting (answered, withdrawn, unknown): the store says which
  if (request.kind === 'dialog') {
    const input = DialogInputSchema.safeParse(request.toolInput);
    if (!input.success) return 'the dialog could not be read';
    const session = await store.getSession({ namespace, sessionId: request.sessionId });
    if (!session) return 'the dialog\'s session is gone';
    // The runner states its field's limit; the agent's limit in the protocol bounds it whatever it says.
    const field = input.data.freeText;
    const limited = field ? { ...input.data, freeText: { ...field, maxChars: Math.min(field.maxChars, FREE_TEXT_MAX_CHARS[session.agent]) } } : input.data;
    return dialogAnswerProblem(limited, options.answer);
  }
  if (options.answer.choice !== undefined) return 'only a dialog is answered with a choice';
  if (options.answer.text !== undefined) return 'only a dialog with a text field takes a typed answer';
  if (request.kind === 'elicitation') {
    const input = ElicitationInputSchema.safeParse(request.toolInput);
    return input.success ? elicitationAnswerProblem(input.data, options.answer) : 'the form could not be read';
  }
  return null;
}
