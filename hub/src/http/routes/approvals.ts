// approvals.ts (routes): `GET /api/pending`, every request still waiting for an answer in the
// caller's namespace, oldest first (what `tether pending` prints). Answers go over /web
// `approval:answer` so that first-answer-wins and the broadcast live in one place.
import { Hono } from 'hono';
import type { PendingList, PendingRequest } from '@tether/shared';
import type { Store } from '../../store/store.ts';
import type { HubHttpEnv } from '../app.ts';

export function createApprovalRoutes(options: { store: Store }) {
  const { store } = options;
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => {
    const namespace = c.get('caller').namespace;
    const pending: PendingRequest[] = [];
    // pendingCount comes from the same table, so only sessions with waiting requests are read.
    for (const session of await store.listSessions({ namespace })) {
      if (session.pendingCount > 0) pending.push(...(await store.listPending({ namespace, sessionId: session.id })));
    }
    pending.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
    const body: PendingList = { pending };
    return c.json(body);
  });
  return app;
}
