// push.ts (routes): web push for the caller's namespace: the VAPID public key browsers subscribe
// with, and adding or removing this browser's subscription. Bodies are parsed with shared schemas.
import { Hono } from 'hono';
import { PushSubscribeSchema, PushUnsubscribeSchema, type VapidPublicKey } from '@tether/shared';
import type { WebPush } from '../../push/push.ts';
import type { HubHttpEnv } from '../app.ts';
import { parseJsonBody } from '../body.ts';
import { httpError } from '../errors.ts';

export function createPushRoutes(options: { push: WebPush }) {
  const app = new Hono<HubHttpEnv>();
  app.get('/vapid', (c) => c.json({ publicKey: options.push.publicKey } satisfies VapidPublicKey));
  app.post('/subscribe', async (c) => {
    const body = await parseJsonBody(c, PushSubscribeSchema);
    if (!body.ok) return body.response;
    options.push.subscriptions.add({ namespace: c.get('caller').namespace, subscription: body.data.subscription, now: Date.now() });
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
