// pending.ts: approval requests from a runner's PreToolUse hook, held until someone answers or the
// runner withdraws them. A request re-sent after a reconnect is a no-op while pending; if it was
// answered while the runner was away, the stored answer is handed back so it is not lost.
import type { Answer, Namespace, PendingRequest, Resolution } from '@tether/shared';
import type { Store } from '../store/store.ts';

export type RequestApprovalResult =
  | { kind: 'added'; request: PendingRequest }
  | { kind: 'pending' }
  /** Answered while the runner was offline: deliver this answer now. */
  | { kind: 'answered'; answer: Answer }
  | { kind: 'withdrawn' }
  | { kind: 'not_found' };

export async function requestApproval(options: { store: Store; namespace: Namespace; request: PendingRequest }): Promise<RequestApprovalResult> {
  const result = await options.store.addRequest(options);
  switch (result.kind) {
    case 'added':
      return { kind: 'added', request: result.request };
    case 'pending':
      return { kind: 'pending' };
    case 'resolved':
      return result.resolution.outcome === 'answered' && result.resolution.answer
        ? { kind: 'answered', answer: result.resolution.answer }
        : { kind: 'withdrawn' };
    case 'not_found':
      return { kind: 'not_found' };
    default: {
      const never: never = result;
      throw new Error(`unexpected result ${String(never)}`);
    }
  }
}

export async function withdrawApproval(options: {
  store: Store;
  namespace: Namespace;
  sessionId: string;
  requestId: string;
}): Promise<{ kind: 'withdrawn'; resolution: Resolution } | { kind: 'already' } | { kind: 'not_found' }> {
  const result = await options.store.resolveRequest({
    namespace: options.namespace,
    requestId: options.requestId,
    sessionId: options.sessionId,
    outcome: 'withdrawn',
    answer: null,
    answeredBy: null,
    device: null,
    at: Date.now(),
  });
  if (result.kind === 'resolved') return { kind: 'withdrawn', resolution: result.resolution };
  return { kind: result.kind };
}
