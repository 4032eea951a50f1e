// queries.ts: what the edges read about sessions (REST views, a watching tab's backfill, a share
// link's page), always within one namespace: a session of another namespace reads as missing.
import type { Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';

export type SessionQueries = ReturnType<typeof createSessionQueries>;

export function createSessionQueries(options: { store: Store }) {
  const { store } = options;
  return {
    get: (ns: Namespace, sessionId: string) => store.getSession({ namespace: ns, sessionId }),
    list: (ns: Namespace) => store.listSessions({ namespace: ns }),
    pendingOf: (ns: Namespace, sessionId: string) => store.listPending({ namespace: ns, sessionId }),
    audit: (ns: Namespace, sessionId: string, limit: number) => store.listAudit({ namespace: ns, sessionId, limit }),
    /** A page of chat by seq (see Store.listMessages); null for a session that is not there. */
    messages: (ns: Namespace, sessionId: string, page: { limit: number; after?: number; before?: number }) => store.listMessages({ namespace: ns, sessionId, ...page }),
    /** The slash commands the session's runner reported; null for a session that is not there. */
    commands: (ns: Namespace, sessionId: string) => store.getSessionCommands({ namespace: ns, sessionId }),
  };
}
