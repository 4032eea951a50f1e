// approvals.ts (routes): `GET /api/pending`, every request still waiting for an answer in the
// caller's namespace, oldest first (what `tether pending` prints). Answers go over /web
// `approval:answer` (or a notification's Allow/Deny); first-answer-wins lives in approvals/.
import { Hono } from 'hono';
import type { PendingList } from '@tether/shared';
import type { ApprovalQueries } from '../../approvals/approvals.ts';
import type { HubHttpEnv } from '../env.ts';

export function createApprovalRoutes(options: { approvals: ApprovalQueries }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/', async (c) => {
    const body: PendingList = { pending: await options.approvals.pending(c.get('caller').namespace) };
    return c.json(body);
  });
  return app;
}
