// git-actions.ts (routes): git writes in a session's folder, from the Changes view:
//   GET  /api/sessions/:id/git   the index's state: changed files staged or not, branch, upstream, gh
//   POST /api/sessions/:id/git   { action: stage|unstage|commit|push|pull-request, …, confirm?, device? }
// Invariant: the caller's namespace only (another's session is 404 like a missing one); the body is
// checked here (shared GitActionBodySchema: paths like the workspace's, a non-blank message) and
// again by the runner. Never cached: it changes under the viewer.
import { Hono } from 'hono';
import { describeZodError, GitActionBodySchema, SessionIdSchema } from '@tether/shared';
import type { GitActions } from '../../git-actions/git-actions.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createGitActionRoutes(options: { git: GitActions }) {
  const app = new Hono<HubHttpEnv>();

  app.get('/:id/git', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const ack = await options.git.state(c.get('caller').namespace, id.data);
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
    const { ok: _ok, ...body } = ack;
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  app.post('/:id/git', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const raw = await c.req.json().catch(() => undefined);
    const body = GitActionBodySchema.safeParse(raw);
    if (!body.success) return httpError(c, { code: 'bad_request', error: describeZodError(body.error) });
    const { confirm, device, ...request } = body.data;
    const caller = c.get('caller');
    const ack = await options.git.write({ namespace: caller.namespace, label: caller.label, device }, { sessionId: id.data, request, confirm });
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
    const { ok: _ok, ...done } = ack;
    c.header('Cache-Control', 'no-store');
    return c.json(done);
  });
  return app;
}
