// answer.ts: an answer to a pending request from any client. First answer wins: the store resolves
// the request in one transaction, so a second tab (or `tether answer`) gets "already answered".
// The resolution records who (token label), from which device, and how long claude waited.
import type { Answer, Namespace, PendingRequest, Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';

export type AnswerResult =
  | { kind: 'answered'; request: PendingRequest; resolution: Resolution }
  | { kind: 'conflict'; resolution: Resolution }
  | { kind: 'not_found' };

export function answerApproval(options: {
  store: Store;
  namespace: Namespace;
  requestId: string;
  answer: Answer;
  answeredBy: string;
  device: string | null;
}): AnswerResult {
  const result = options.store.resolveRequest({
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
