// push.ts: this browser's web push subscription.
// Flow: "Notifications" on ─► permission ─► service worker ready ─► pushManager.subscribe with the
// hub's VAPID key (GET /api/push/vapid) ─POST /api/push/subscribe─► hub. Off: unsubscribe here and
// DELETE at the hub. The hub pushes when an approval or question waits or a turn ends and no tab
// of this login is on screen (the socket reports visibility, lib/socket.ts).
import { hubApi } from '../lib/hub.ts';
import { deviceNameFromUserAgent } from '../lib/format.ts';

export type PushState = 'unsupported' | 'denied' | 'off' | 'on';

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

function urlBase64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = (text + '='.repeat((4 - (text.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function getPushState(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription()) ? 'on' : 'off';
}

/** Asks for permission (must run from a tap), subscribes and tells the hub. */
export async function enablePush(): Promise<PushState> {
  if (!supported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await hubApi.pushPublicKey();
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made with another hub's key cannot be used: start over.
  if (subscription) {
    const key = subscription.options.applicationServerKey;
    const same = key && btoa(String.fromCharCode(...new Uint8Array(key))) === btoa(String.fromCharCode(...urlBase64ToBytes(publicKey)));
    if (!same) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToBytes(publicKey) });
  const json = subscription.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
  // The device name is what the audit trail shows when this browser's notification answers.
  await hubApi.pushSubscribe({ endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys }, deviceNameFromUserAgent(navigator.userAgent));
  return 'on';
}

/** At each signed-in start: a browser that already has notifications on tells the hub again. A
 *  subscription lives by the login that made it (the hub drops it when that device is revoked, and
 *  drops records from before it knew their login), so this re-attaches it to the current login.
 *  Never asks for permission; a failure leaves the switch showing what it shows. */
export async function renewPushSubscription(): Promise<void> {
  if (!supported() || Notification.permission !== 'granted') return;
  const subscription = await currentSubscription();
  if (!subscription) return;
  const json = subscription.toJSON() as { endpoint: string; expirationTime?: number | null; keys: { p256dh: string; auth: string } };
  await hubApi.pushSubscribe({ endpoint: json.endpoint, expirationTime: json.expirationTime ?? null, keys: json.keys }, deviceNameFromUserAgent(navigator.userAgent));
}

export async function disablePush(): Promise<PushState> {
  const subscription = await currentSubscription();
  if (subscription) {
    await hubApi.pushUnsubscribe(subscription.endpoint).catch(() => {});
    await subscription.unsubscribe();
  }
  return 'off';
}
