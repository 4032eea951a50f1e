// share.ts (routes): read-only share links. Creating and revoking need the caller's namespace to own
// the session; reading with a link needs only the link (this route is mounted before the bearer
// middleware) and returns that one session and its latest messages, nothing else.
import { Hono } from 'hono';
import { describeZodError, SessionIdSchema, ShareCreateSchema, ShareJtiSchema, type ShareCreated } from '@tether/shared';
import type { SessionQueries } from '../../sessions/queries.ts';
import type { ShareLinks } from '../../auth/share-links.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

/** Messages a link holder gets; the share page shows the latest. */
const SHARE_MESSAGES_LIMIT = 500;

/** `/api/sessions/:id/share…`, behind the bearer middleware. */
export function createShareAdminRoutes(options: { sessions: SessionQueries; shareLinks: ShareLinks }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/:id/share', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const raw: unknown = await c.req.json().catch(() => ({}));
    const body = ShareCreateSchema.safeParse(raw ?? {});
    if (!body.success) return httpError(c, { code: 'bad_request', error: describeZodError(body.error) });
    const caller = c.get('caller');
    if (!(await options.sessions.get(caller.namespace, id.data))) return httpError(c, { code: 'not_found', error: 'no such session' });
    const link = await options.shareLinks.create({
      namespace: caller.namespace,
      sessionId: id.data,
      expiresInSec: body.data.expiresInSec,
      createdBy: caller.label || caller.tokenId,
      tokenId: caller.tokenId,
    });
    const origin = new URL(c.req.url).origin;
    const created: ShareCreated = { url: `${origin}/share/${link.token}`, token: link.token, jti: link.jti, expiresAt: link.expiresAt };
    return c.json(created, 201);
  });
  app.delete('/:id/share/:jti', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    const jti = ShareJtiSchema.safeParse(c.req.param('jti'));
    if (!id.success || !jti.success) return httpError(c, { code: 'bad_request', error: 'bad session id or link id' });
    const revoked = await options.shareLinks.revoke({ namespace: c.get('caller').namespace, sessionId: id.data, jti: jti.data });
    if (!revoked) return httpError(c, { code: 'not_found', error: 'no such live link' });
    return c.json({ ok: true as const });
  });
  return app;
}

/** `/api/share/:token`, open: the link is the credential. */
export function createSharedViewRoutes(options: { sessions: SessionQueries; shareLinks: ShareLinks }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/:token', async (c) => {
    const claims = await options.shareLinks.verify(c.req.param('token'));
    // Expired, revoked, forged: one answer, so a link holder learns nothing else.
    if (!claims) return httpError(c, { code: 'unauthorized', error: 'this link has expired or was revoked' });
    const session = await options.sessions.get(claims.namespace, claims.sessionId);
    if (!session) return httpError(c, { code: 'not_found', error: 'no such session' });
    const page = await options.sessions.messages(claims.namespace, claims.sessionId, { limit: SHARE_MESSAGES_LIMIT });
    return c.json({ session, messages: page?.messages ?? [], more: page?.more ?? false, expiresAt: claims.expiresAt, readOnly: true as const });
  });
  return app;
}
