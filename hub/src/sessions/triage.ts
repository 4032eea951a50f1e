// triage.ts: a person's pin and archive marks on a session, kept on the hub so that they follow them
// to every device of the namespace (issue 21). Each change is stored and published as
// `session.updated`, which every tab of the namespace hears.
//
//   tab ─session:pin / session:archive─► here ─► store (rules.ts) ─► facts (session.updated) ─► every tab
//
// Invariants: the namespace's own sessions only (another's answers `not_found`, like a missing one);
// a live session is never archived (`conflict`; the store's statement tests the status, so a
// session resumed meanwhile is refused too); pinned and archived exclude each other.
import { ackError, type Ack, type Namespace, type SessionArchive, type SessionPin, type WebAcks } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { FactBus } from '../facts/facts.ts';

const NO_SESSION = 'no such session';

export function createTriage(options: { store: Store; facts: FactBus }) {
  const { store, facts } = options;
  return {
    async pin(ns: Namespace, { sessionId, pinned }: SessionPin): Promise<Ack<WebAcks['session:pin']>> {
      const session = await store.pinSession({ namespace: ns, sessionId, pinned, now: Date.now() });
      if (!session) return ackError('not_found', NO_SESSION);
      facts.publish('session.updated', { namespace: ns, session });
      return { ok: true, session };
    },
    async archive(ns: Namespace, { sessionId, archived }: SessionArchive): Promise<Ack<WebAcks['session:archive']>> {
      const result = await store.archiveSession({ namespace: ns, sessionId, archived, now: Date.now() });
      switch (result.kind) {
        case 'not_found':
          return ackError('not_found', NO_SESSION);
        case 'live':
          return ackError('conflict', 'only an ended session can be archived: end it first, so that nothing it asks is hidden');
        case 'ok':
          facts.publish('session.updated', { namespace: ns, session: result.session });
          return { ok: true, session: result.session };
        default: {
          const never: never = result;
          return never;
        }
      }
    },
  };
}
