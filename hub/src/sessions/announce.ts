// announce.ts: the session as it now is, to everyone. A fact about a session's requests or chat
// changes what its record shows (pendingCount, lastSeq, status), so it is followed by
// `session.updated`; this is the one place that reads the session back and says so.
import type { Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';

export async function announceSession(options: { store: Store; facts: FactBus; namespace: Namespace; sessionId: string }): Promise<void> {
  const session = await options.store.getSession({ namespace: options.namespace, sessionId: options.sessionId });
  if (session) options.facts.publish('session.updated', { namespace: options.namespace, session });
}
