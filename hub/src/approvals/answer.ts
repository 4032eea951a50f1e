// answer.ts: an answer to a pending request from any client. First answer wins: the store resolves
// the request in one transaction, so a second tab (or `tether answer`) gets "already answered".
// The resolution records who (token label), from which device, and how long claude waited.
import { DESK_ANSWERER, type Answer, type Namespace, type PendingRequest, type Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';

export type AnswerResult =
  | { kind: 'answered'; request: PendingRequest; resolution: Resolution }
  | { kind: 'conflict'; resolution: Resolution }
  | { kind: 'not_found' };

export async function answerApproval(options: {
  store: Store;
  namespace: Namespace;
  requestId: string;
  answer: Answer;
  answeredBy: string;
  device: string | null;
}): Promise<AnswerResult> {
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
