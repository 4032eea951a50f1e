// announce.ts: an answer from a client, and the facts it makes true. The /web socket
// (`approval:answer`) and a notification's Allow/Deny (`POST /api/push/action`) both come here, so
// first-answer-wins and what everyone hears afterwards live in one place.
//
//   answerApproval (store: first answer wins) ─answered─► runner: approval:answered
//                                                       ─► namespace: approval:resolved, session:updated
import type { Answer, CliServerToClient, Namespace, WebServerToClient } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { answerApproval, type AnswerResult } from './answer.ts';

/** The part of the hub's broadcaster an answer speaks through (sockets/broadcast.ts has it). */
export type ApprovalFacts = {
  toRunner(ns: Namespace, sessionId: string, event: 'approval:answered', payload: Parameters<CliServerToClient['approval:answered']>[0]): void;
  toNamespace(ns: Namespace, event: 'approval:resolved', payload: Parameters<WebServerToClient['approval:resolved']>[0]): void;
  toNamespace(ns: Namespace, event: 'session:updated', payload: Parameters<WebServerToClient['session:updated']>[0]): void;
};

export async function answerAndAnnounce(options: {
  store: Store;
  facts: ApprovalFacts;
  namespace: Namespace;
  requestId: string;
  answer: Answer;
  answeredBy: string;
  device: string | null;
}): Promise<AnswerResult> {
  const { store, facts, namespace: ns, requestId, answer } = options;
  const result = await answerApproval({ store, namespace: ns, requestId, answer, answeredBy: options.answeredBy, device: options.device });
  if (result.kind !== 'answered') return result;
  const sessionId = result.request.sessionId;
  facts.toRunner(ns, sessionId, 'approval:answered', { sessionId, requestId, answer });
  facts.toNamespace(ns, 'approval:resolved', result.resolution);
  const updated = await store.getSession({ namespace: ns, sessionId });
  if (updated) facts.toNamespace(ns, 'session:updated', updated);
  return result;
}
