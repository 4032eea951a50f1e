// find.ts (routes): Find inside one session, from the session screen:
//   POST /api/sessions/:id/find   { q, mode?: 'literal' | 'wildcard', caseSensitive?, in?: ['chat', 'terminal', 'files'] }
//     200 { chat?: { ok, matches, stopped, from } | { ok: false, error }, terminal?: …, files?: … }
// Invariant: the caller's namespace only (another's session is 404 like a missing one); the body is
// checked here (shared FindRequestSchema) and the files part again by the runner. A POST so the
// words searched stay out of URLs and logs. A share link never reaches it (share links read through
// /api/share only, and cannot search: docs/decisions/find.md). Never cached.
import { Hono } from 'hono';
import { describeZodError, FindRequestSchema, SessionIdSchema } from '@tether/shared';
import type { Find } from '../../find/find.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createFindRoutes(options: { find: Find }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/:id/find', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const raw: unknown = await c.req.json().catch(() => undefined);
    const body = FindRequestSchema.safeParse(raw);
    if (!body.success) return httpError(c, { code: 'bad_request', error: describeZodError(body.error) });
    const ack = await options.find.find(c.get('caller').namespace, id.data, body.data);
    c.header('Cache-Control', 'no-store');
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error, ...(ack.code === 'rate_limited' ? { headers: { 'Retry-After': '2' } } : {}) });
    const { ok: _ok, ...answer } = ack;
    return c.json(answer);
  });
  return app;
}
