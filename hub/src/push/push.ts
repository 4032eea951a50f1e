// push.ts: the push room's main file. It owns web push for the hub: the VAPID keys (made on first
// start, kept in TETHER_HOME), the subscriptions of each namespace, and the notifier that turns
// hub facts into pushes when nobody is looking.
//
//   GET /api/push/vapid ─► keys.publicKey ; POST/DELETE /api/push/subscribe ─► subscriptions
//   broadcast facts ─► notifier ─► sendWebPush (RFC 8291 + 8292) ─► the browser's push service
import { join } from 'node:path';
import type { Store } from '../store/store.ts';
import { loadVapidKeys } from './vapid.ts';
import type { VapidKeys } from './web-push.ts';
import { openPushSubscriptions } from './subscriptions.ts';
import { createPushNotifier } from './notifier.ts';

export type WebPush = ReturnType<typeof createWebPush>;

export function createWebPush(options: { home: string; store: Store; fetchFn?: typeof fetch; keys?: VapidKeys }) {
  // Several hubs behind one URL pass the cluster's shared pair (a browser subscribed on one hub is
  // pushed by another).
  const keys = options.keys ?? loadVapidKeys({ path: join(options.home, 'vapid.json') });
  const subscriptions = openPushSubscriptions({ path: join(options.home, 'push-subscriptions.json') });
  const notifier = createPushNotifier({
    store: options.store,
    subscriptions,
    keys,
    ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    onError: (message) => console.error(`tether hub: ${message}`),
  });
  return { publicKey: keys.publicKey, subscriptions, notifier };
}
