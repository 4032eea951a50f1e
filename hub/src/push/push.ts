// push.ts: the push room's main file. It owns web push for the hub: the VAPID keys (made on first
// start, kept in TETHER_HOME), the subscriptions of each namespace, the notifier that turns hub
// facts into pushes when nobody is looking, and the tokens behind a notification's Allow/Deny.
//
//   GET /api/push/vapid ─► keys.publicKey ; POST/DELETE /api/push/subscribe ─► subscriptions
//   hub facts (facts/) ─► notifier ─► sendWebPush (web-push library) ─► the browser's push service
//   POST /api/push/action ─► answerFromNotification (tokens ─► approvals: first answer wins)
import { join } from 'node:path';
import type { Namespace, NotificationAction } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { Approvals } from '../approvals/approvals.ts';
import type { FactBus } from '../facts/facts.ts';
import { loadVapidKeys } from './vapid.ts';
import type { VapidKeys } from './web-push.ts';
import { openPushSubscriptions } from './subscriptions.ts';
import { createPushNotifier } from './notifier.ts';
import { createActionTokens } from './action-tokens.ts';
import { answerFromNotification } from './actions.ts';
import { checkPushEndpoint, type EndpointPolicy } from './endpoint.ts';

export type WebPush = ReturnType<typeof createWebPush>;

export function createWebPush(options: {
  home: string;
  store: Store;
  approvals: Approvals;
  /** Whether a tab of the namespace is on screen (then nothing is pushed). */
  anyVisible: (ns: Namespace) => Promise<boolean>;
  fetchFn?: typeof fetch;
  keys?: VapidKeys;
  endpoints?: EndpointPolicy;
}) {
  const endpoints = options.endpoints ?? { dev: false };
  // Several hubs behind one URL pass the cluster's shared pair (a browser subscribed on one hub is
  // pushed by another).
  const keys = options.keys ?? loadVapidKeys({ path: join(options.home, 'vapid.json') });
  const subscriptions = openPushSubscriptions({ path: join(options.home, 'push-subscriptions.json') });
  const tokens = createActionTokens();
  // A subscription lives by the access token that made it (a paired device's): checked before every
  // push and every notification answer, so revocation reaches push at once, whoever revoked it.
  const tokenLive = async (tokenId: string) => (await options.store.getToken({ id: tokenId }))?.revokedAt === null;
  const notifier = createPushNotifier({
    store: options.store,
    tokenLive,
    subscriptions,
    keys,
    tokens,
    anyVisible: options.anyVisible,
    ...(options.fetchFn ? { fetchFn: options.fetchFn } : {}),
    onError: (message) => console.error(`tether hub: ${message}`),
    endpoints,
  });
  return {
    publicKey: keys.publicKey,
    subscriptions,
    /** Whether the hub would send to this endpoint (checked when a browser subscribes). */
    checkEndpoint: (endpoint: string) => checkPushEndpoint(endpoint, endpoints),
    notifier,
    /** Pushes follow the hub's facts from now on. */
    listen: (facts: FactBus) => notifier.listen(facts),
    answer: (action: NotificationAction) => answerFromNotification({ approvals: options.approvals, tokens, notifier, tokenLive, action }),
  };
}
