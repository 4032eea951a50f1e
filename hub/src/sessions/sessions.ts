// sessions.ts: the session lifecycle on the hub: register (upsert, owned by one namespace), patch,
// and end. Ending also withdraws every pending request and drops prompts that never reached claude,
// and reports each of those changes so that every viewer can clear them.
// Invariant: a runner disconnecting does not end its session (it will reconnect and re-register);
// only session:end does.
import type { Namespace, Prompt, Resolution, Session, SessionEnd, SessionPatch } from '@tether/shared';
import type { RegisterSessionResult, SessionRegistrationInput, Store } from '../store/store.ts';

/** Prompts in these states have not reached claude; an ended session drops them. */
const UNDELIVERED: ReadonlyArray<Prompt['status']> = ['queued', 'waiting_for_desk', 'typing'];

export function registerSession(options: {
  store: Store;
  namespace: Namespace;
  registration: SessionRegistrationInput;
}): RegisterSessionResult {
  return options.store.registerSession({ namespace: options.namespace, registration: options.registration, now: Date.now() });
}

export function patchSession(options: { store: Store; namespace: Namespace; sessionId: string; patch: SessionPatch }): Session | null {
  return options.store.updateSession({ ...options, now: Date.now() });
}

export type EndedSession = { session: Session; withdrawn: Resolution[]; dropped: Prompt[] };

export function endSession(options: {
  store: Store;
  namespace: Namespace;
  end: Required<Pick<SessionEnd, 'sessionId' | 'status'>> & { exitCode: number | null; reason: string | null };
}): EndedSession | null {
  const { store, namespace, end } = options;
  if (!store.getSession({ namespace, sessionId: end.sessionId })) return null;
  const now = Date.now();
  const withdrawn: Resolution[] = [];
  for (const request of store.listPending({ namespace, sessionId: end.sessionId })) {
    const result = store.resolveRequest({
      namespace,
      requestId: request.id,
      sessionId: end.sessionId,
      outcome: 'withdrawn',
      answer: null,
      answeredBy: null,
      device: null,
      at: now,
    });
    if (result.kind === 'resolved') withdrawn.push(result.resolution);
  }
  const live = store.listPrompts({ namespace, sessionId: end.sessionId }).filter((p) => UNDELIVERED.includes(p.status));
  const session = store.endSession({ namespace, sessionId: end.sessionId, status: end.status, exitCode: end.exitCode, reason: end.reason, now });
  if (!session) return null;
  const liveIds = new Set(live.map((p) => p.id));
  const dropped = store.listPrompts({ namespace, sessionId: end.sessionId }).filter((p) => liveIds.has(p.id));
  return { session, withdrawn, dropped };
}
