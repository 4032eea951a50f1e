// answer.ts: an answer to a pending request from any client. First answer wins: the store resolves
// the request in one transaction, so a second tab (or `tether answer`) gets "already answered".
// The resolution records who (token label), from which device, and how long claude waited.
import { DESK_ANSWERER, dialogAnswerProblem, DialogInputSchema, type Answer, type Namespace, type PendingRequest, type Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';

export type AnswerResult =
  | { kind: 'answered'; request: PendingRequest; resolution: Resolution }
  | { kind: 'conflict'; resolution: Resolution }
  | { kind: 'invalid'; reason: string }
  | { kind: 'not_found' };

/** Why `answer` cannot answer this waiting request, or null. A `dialog` is answered by one of its
 *  options (the runner presses that option's key) and nothing else takes a `choice`: an answer that
 *  fits no option would resolve the request while claude still waits at an empty desk. */
async function answerProblem(options: { store: Store; namespace: Namespace; requestId: string; answer: Answer }): Promise<string | null> {
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

export async function answerApproval(options: {
  store: Store;
  namespace: Namespace;
  requestId: string;
  answer: Answer;
  answeredBy: string;
  device: string | null;
}): Promise<AnswerResult> {
  const problem = await answerProblem(options);
  if (problem) return { kind: 'invalid', reason: problem };
  const result = await options.store.resolveRequest({
    namespace: options.namespace,
    requestId: options.requestId,
    outcome: 'answered',
    answer: options.answer,
    answeredBy: options.answeredBy,
    device: options.device,
    at: Date.now(),
  });
  switch (result.kind) {
    case 'resolved':
      return { kind: 'answered', request: result.request, resolution: result.resolution };
    case 'already':
      return { kind: 'conflict', resolution: result.resolution };
    case 'not_found':
      return { kind: 'not_found' };
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${String(never)}`);
    }
  }
}

/** The desk answered a request of its own session (or took it to claude's dialog: `answer` null).
 *  First answer wins here too: when a client answered first, the desk learns that answer. */
export async function answerAtDesk(options: {
  store: Store;
  namespace: Namespace;
  sessionId: string;
  requestId: string;
  answer: Answer | null;
  device: string | null;
}): Promise<{ kind: 'won'; resolution: Resolution } | { kind: 'lost'; resolution: Resolution } | { kind: 'not_found' }> {
  const result = await options.store.resolveRequest({
    namespace: options.namespace,
    requestId: options.requestId,
    sessionId: options.sessionId,
    outcome: 'answered',
    answer: options.answer,
    answeredBy: DESK_ANSWERER,
    device: options.device,
    at: Date.now(),
  });
  switch (result.kind) {
    case 'resolved':
      return { kind: 'won', resolution: result.resolution };
    case 'already':
      return { kind: 'lost', resolution: result.resolution };
    case 'not_found':
      return { kind: 'not_found' };
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${String(never)}`);
    }
  }
}
