// push.ts: web push (RFC 8030) subscriptions and what a push says. A browser subscribes with the
// hub's VAPID public key and hands the hub its endpoint and keys; the hub encrypts each message to
// those keys (RFC 8291) and signs the request (RFC 8292), so the push service can read neither.
import { z } from 'zod';
import { NamespaceSchema, RequestIdSchema } from './ids.ts';

/** base64url without padding, as PushSubscription.toJSON() gives the keys. */
const Base64Url = z.string().regex(/^[A-Za-z0-9_-]+$/, 'base64url');

/** Push services are https. Plain http is accepted only on the loopback (a local test endpoint),
 *  so a subscription can never make the hub POST in clear text across a network. */
export const PUSH_ENDPOINT_RE = /^(https:\/\/[^\s/]+|http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?)(\/[^\s]*)?$/;

export const PushSubscriptionSchema = z.object({
  endpoint: z.string().max(2048).regex(PUSH_ENDPOINT_RE, 'push endpoint: https (or http on the loopback)'),
  /** When the push service will drop the subscription (ms), if it says. */
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    /** The browser's P-256 public key, uncompressed point (65 bytes → 87 chars). */
    p256dh: Base64Url.min(80).max(100),
    /** The 16-byte auth secret (22 chars). */
    auth: Base64Url.min(16).max(32),
  }),
});
export type PushSubscriptionJson = z.infer<typeof PushSubscriptionSchema>;

/** `POST /api/push/subscribe`. `device` names this browser ("Chrome on Android") in the audit
 *  trail when one of its notifications answers a request. */
export const PushSubscribeSchema = z.object({ subscription: PushSubscriptionSchema, device: z.string().min(1).max(100).optional() });
/** `DELETE /api/push/subscribe`. */
export const PushUnsubscribeSchema = z.object({ endpoint: z.string().max(2048) });

/** `GET /api/push/vapid` → the key a browser subscribes with (uncompressed P-256, base64url). */
export type VapidPublicKey = { publicKey: string };

/** A button that answers from the notification: `allow`, `deny`, `accept`, `keep-planning`,
 *  `option-<n>` (the hub's push/choices.ts decides which a request gets, and what each answers). */
export const NotificationChoiceSchema = z.string().regex(/^[a-z][a-z0-9-]{0,23}$/, 'notification choice').refine((c) => c !== 'open', 'open answers nothing');
export type NotificationChoice = z.infer<typeof NotificationChoiceSchema>;
/** A notification's buttons: its choices, each with a token, or `open` alone (answered in the app). */
export type PushActionButton = { action: NotificationChoice | 'open'; title: string };

/** What a push carries, as the service worker shows it. Short: a push payload is at most ~4 KB. */
export type PushMessage = {
  title: string;
  body: string;
  /** Opened when the notification is tapped (an app path such as /sessions/<id>). */
  url: string;
  /** Notifications with the same tag replace each other (one per request, one per session turn). */
  tag: string;
  sessionId: string;
  /** `schedule`: a scheduled prompt ran, was skipped or failed (schedules.ts): every unattended run is told. */
  kind: 'approval' | 'question' | 'plan' | 'dialog' | 'elicitation' | 'attention' | 'turn-ended' | 'schedule' | 'limit-reset';
  /** A waiting request: its id, the buttons, and (permissions only) one single-use token per
   *  choice, the whole authority of that button (`POST /api/push/action`). */
  request?: {
    namespace: string;
    id: string;
    actions: PushActionButton[];
    tokens?: Record<NotificationChoice, string>;
  };
};

/** The request was answered elsewhere (or withdrawn): the notification with this tag is stale. */
export type PushClose = { kind: 'close'; tag: string };

/** Every payload a push carries. */
export type PushPayload = PushMessage | PushClose;

/** A notification action token: 256 random bits, base64url. */
export const NotificationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'notification token');

/** `POST /api/push/action`: a notification's button tapped. No login: the token is the authority,
 *  bound to this namespace, request, choice and the answer that choice gives, usable once and briefly. */
export const NotificationActionSchema = z
  .object({
    namespace: NamespaceSchema,
    requestId: RequestIdSchema,
    choice: NotificationChoiceSchema,
    token: NotificationTokenSchema,
  })
  .strict();
export type NotificationAction = z.infer<typeof NotificationActionSchema>;

/** Answers from a notification are recorded with this device prefix (`notification@Chrome on
 *  Android`), the way desk answers are `desk@host`. */
export { NOTIFICATION_DEVICE_PREFIX } from './wire.ts';

/** Web → hub: whether this tab is on screen. The hub pushes only when no tab of the namespace is. */
export const ClientVisibilitySchema = z.object({ visible: z.boolean() });
