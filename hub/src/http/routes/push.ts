// push.ts (routes): web push for the caller's namespace: the VAPID public key browsers subscribe
// with, adding or removing this browser's subscription, and (outside the login) a notification's
// Allow/Deny, whose single-use token is its whole authority. Bodies are parsed with shared schemas.
import { Hono } from 'hono';
import { NotificationActionSchema, PushSubscribeSchema, PushUnsubscribeSchema, type VapidPublicKey } from '@tether/shared';
import type { WebPush } from '../../push/push.ts';
import type { HubHttpEnv } from '../env.ts';
import { parseJsonBody } from '../body.ts';
import { httpError } from '../errors.ts';

export function createPushRoutes(options: { push: WebPush }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/vapid', (c) => c.json({ publicKey: options.push.publicKey } satisfies VapidPublicKey));
  app.post('/subscribe', async (c) => {
    const body = await parseJsonBody(c, PushSubscribeSchema);
    if (!body.ok) return body.response;
    const endpoint = options.push.checkEndpoint(body.data.subscription.endpoint);
    if (!endpoint.ok) return httpError(c, { code: 'bad_request', error: endpoint.reason });
    const caller = c.get('caller');
    options.push.subscriptions.add({
      namespace: caller.namespace,
      subscription: body.data.subscription,
      tokenId: caller.tokenId,
      label: caller.label || caller.tokenId,
      device: body.data.device ?? null,
      now: Date.now(),
    });
    return c.json({ ok: true as const }, 201);
  });
  app.delete('/subscribe', async (c) => {
    const body = await parseJsonBody(c, PushUnsubscribeSchema);
    if (!body.ok) return body.response;
    const removed = options.push.subscriptions.remove({ namespace: c.get('caller').namespace, endpoint: body.data.endpoint });
    if (!removed) return httpError(c, { code: 'not_found', error: 'no such subscription' });
    return c.json({ ok: true as const });
  });
  return app;
}

/** `POST /api/push/action`, mounted before the login check: a service worker has no login to send. */
export function createPushActionRoutes(options: { push: WebPush }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/', async (c) => {
    const body = await parseJsonBody(c, NotificationActionSchema);
    if (!body.ok) return body.response;
    const ack = await options.push.answer(body.data);
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
    return c.json({ ok: true as const, resolution: ack.resolution });
  });
  return app;
}
