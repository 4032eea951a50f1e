// sessions.ts: the session lifecycle on the hub: register (upsert, owned by one namespace), patch,
// and end. Ending also withdraws every pending request, drops prompts that never reached claude and
// deletes the session's attachments, and reports each of those changes so that every viewer can
// clear them.
// Invariant: a runner disconnecting does not end its session (it will reconnect and re-register);
// only session:end does.
import { isFinalStatus, type Namespace, type Prompt, type Resolution, type Session, type SessionEnd, type SessionPatch } from '@tether/shared';
import type { RegisterSessionResult, SessionRegistrationInput, Store } from '../store/store.ts';
import { inSessionOrder } from './in-order.ts';
import { UNSENT_PROMPT_STATUSES } from '../store/rules.ts';

/** Prompts in these states have not reached claude; an ended session drops them. */

/** With `onlyIfNew`, an id already registered is left alone and answers null (the hub registering a
 *  session it starts must not overwrite the runner's own, possibly earlier, registration). */
type RegisterOptions = { store: Store; namespace: Namespace; registration: SessionRegistrationInput };
export function registerSession(options: RegisterOptions): Promise<RegisterSessionResult>;
export function registerSession(options: RegisterOptions & { onlyIfNew: true }): Promise<RegisterSessionResult | null>;
export function registerSession(options: RegisterOptions & { onlyIfNew?: boolean }): Promise<RegisterSessionResult | null> {
  const { store, namespace, registration } = options;
  return inSessionOrder(namespace, registration.id, async () => {
    if (options.onlyIfNew && (await store.getSession({ namespace, sessionId: registration.id }))) return null;
    return store.registerSession({ namespace, registration, now: Date.now() });
  });
}

export function patchSession(options: { store: Store; namespace: Namespace; sessionId: string; patch: SessionPatch }): Promise<Session | null> {
  return options.store.updateSession({ ...options, now: Date.now() });
}

/** `alreadyEnded`: asked with `ifLive` and the session had ended before; nothing was changed. */
export type EndedSession = { session: Session; withdrawn: Resolution[]; dropped: Prompt[]; alreadyEnded?: true };

export function endSession(options: {
  store: Store;
  namespace: Namespace;
  end: Required<Pick<SessionEnd, 'sessionId' | 'status'>> & { exitCode: number | null; reason: string | null };
  /** Leave a session that already ended untouched (ending on behalf of a runner that may have ended it). */
  ifLive?: boolean;
}): Promise<EndedSession | null> {
  return inSessionOrder(options.namespace, options.end.sessionId, () => endNow(options));
}

async function endNow(options: Parameters<typeof endSession>[0]): Promise<EndedSession | null> {
  const { store, namespace, end } = options;
  const current = await store.getSession({ namespace, sessionId: end.sessionId });
  if (!current) return null;
  if (options.ifLive && isFinalStatus(current.status)) return { session: current, withdrawn: [], dropped: [], alreadyEnded: true };
  const now = Date.now();
  const withdrawn: Resolution[] = [];
  for (const request of await store.listPending({ namespace, sessionId: end.sessionId })) {
    const result = await store.resolveRequest({
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
  const live = (await store.listPrompts({ namespace, sessionId: end.sessionId })).filter((p) => UNSENT_PROMPT_STATUSES.includes(p.status));
  const session = await store.endSession({ namespace, sessionId: end.sessionId, status: end.status, exitCode: end.exitCode, reason: end.reason, now });
  if (!session) return null;
  // Attachments served the session's prompts; nothing reads them once it is over (a resume starts clean).
  await store.deleteSessionAttachments({ namespace, sessionId: end.sessionId });
  const liveIds = new Set(live.map((p) => p.id));
  const dropped = (await store.listPrompts({ namespace, sessionId: end.sessionId })).filter((p) => liveIds.has(p.id));
  return { session, withdrawn, dropped };
}
