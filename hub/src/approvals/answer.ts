// answer.ts: whether an answer fits the request it answers, checked before the store resolves it
// (approvals.ts: first answer wins there). The resolution records who (token label), from which
// device, and how long claude waited.
import { dialogAnswerProblem, DialogInputSchema, type Answer, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';

/** Why `answer` cannot answer this waiting request, or null. A `dialog` is answered by one of its
 *  options (the runner presses that option's key) and nothing else takes a `choice`: an answer that
 *  fits no option would resolve the request while claude still waits at an empty desk. */
export async function answerProblem(options: { store: Store; namespace: Namespace; requestId: string; answer: Answer }): Promise<string | null> {
  const { store, namespace } = options;
  // pendingCount comes from the same table, so only sessions with waiting requests are read.
  for (const session of await store.listSessions({ namespace })) {
    if (session.pendingCount === 0) continue;
    const request = (await store.listPending({ namespace, sessionId: session.id })).find((r) => r.id === options.requestId);
    if (!request) continue;
    if (request.kind === 'dialog') {
      const input = DialogInputSchema.safeParse(request.toolInput);
      return input.success ? dialogAnswerProblem(input.data, options.answer) : 'the dialog could not be read';
    }
    return options.answer.choice === undefined ? null : 'only a dialog is answered with a choice';
  }
  return null; // not waiting (answered, withdrawn, unknown): the store says which
}
