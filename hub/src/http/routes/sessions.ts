// sessions.ts (routes): read-only session views for the caller's namespace: the list, one session
// with its pending requests and audit, message pages by seq, and the slash commands its claude takes.
// The list also carries a web login's phone cache key (auth/cache-keys.ts).
// Invariant: a session of another namespace answers 404 exactly like a missing one.
import { Hono } from 'hono';
import {
  MessagePageQuerySchema,
  SessionIdSchema,
  describeZodError,
  type MessagePage,
  type SessionList,
  type SessionCommands,
} from '@tether/shared';
import type { z } from 'zod';
import type { SessionQueries } from '../../sessions/queries.ts';
import type { HubHttpEnv } from '../env.ts';
import type { CacheKeys } from '../../auth/cache-keys.ts';
import { httpError } from '../errors.ts';

/** Audit entries returned with a session; the UI shows the recent ones. */
const AUDIT_LIMIT = 200;

export function createSessionRoutes(options: { sessions: SessionQueries; cacheKeys?: CacheKeys }) {
  const { sessions } = options;
  const app = new Hono<HubHttpEnv>();

  // The list is what every signed-in page load asks for first: the phone's cache key rides along
  // (no round trip of its own), and is never kept by any cache on the way.
  app.get('/', async (c) => {
    const caller = c.get('caller');
    const cacheKey = options.cacheKeys?.keyFor(caller) ?? null;
    const body: SessionList = { sessions: await sessions.list(caller.namespace), ...(cacheKey ? { cacheKey } : {}) };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  app.get('/:id', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const namespace = c.get('caller').namespace;
    const session = await sessions.get(namespace, id.data);
    if (!session) return httpError(c, { code: 'not_found', error: 'no such session' });
    const pending = await sessions.pendingOf(namespace, id.data);
    const audit = await sessions.audit(namespace, id.data, AUDIT_LIMIT);
    return c.json({ session, pending, audit });
  });

  app.get('/:id/messages', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const query = MessagePageQuerySchema.safeParse(c.req.query());
    if (!query.success) return httpError(c, { code: 'bad_request', error: describeZodError(query.error) });
    const q: z.output<typeof MessagePageQuerySchema> = query.data;
    const page = await sessions.messages(c.get('caller').namespace, id.data, {
      limit: q.limit,
      ...(q.after !== undefined ? { after: q.after } : {}),
      ...(q.before !== undefined ? { before: q.before } : {}),
    });
    if (!page) return httpError(c, { code: 'not_found', error: 'no such session' });
    const body: MessagePage = page;
    return c.json(body);
  });

  app.get('/:id/commands', async (c) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const commands = await sessions.commands(c.get('caller').namespace, id.data);
    if (!commands) return httpError(c, { code: 'not_found', error: 'no such session' });
    const body: SessionCommands = commands;
    return c.json(body);
  });

  return app;
}
