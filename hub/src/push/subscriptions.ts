// subscriptions.ts: which browsers of which namespace get pushes. Kept as one small JSON file in
// TETHER_HOME, rewritten whole on each change (there are a handful per namespace).
// Invariants: an endpoint belongs to one namespace at a time: a browser that signs in to another
// namespace and subscribes again moves over, so a push never reaches a login it has left. Each
// subscription names the access token (a paired device's, or the login's) that made it: it lives
// only as long as that token (the notifier checks before every push and every notification answer),
// and a record that names none (a file from before) is dropped on load: the app subscribes again
// on its next start.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Namespace, PushSubscriptionJson } from '@tether/shared';

/** Browsers per namespace: phones, laptops, a tablet. Past this the oldest is dropped. */
export const MAX_SUBSCRIPTIONS_PER_NAMESPACE = 20;

export type PushSubscriptionRecord = {
  namespace: Namespace;
  endpoint: string;
  p256dh: string;
  auth: string;
  createdAt: number;
  /** The access token whose login subscribed: revoked, the subscription is dead. */
  tokenId: string;
  /** The login that subscribed (its label) and the browser ("Chrome on Android"): a notification's
   *  Allow/Deny is recorded as answered by them. Absent in files from before notification actions. */
  label?: string;
  device?: string;
};

export type PushSubscriptions = ReturnType<typeof openPushSubscriptions>;

export function openPushSubscriptions(options: { path: string }) {
  let records: PushSubscriptionRecord[] = [];
  if (existsSync(options.path)) {
    try {
      const parsed = JSON.parse(readFileSync(options.path, 'utf8')) as unknown;
      if (Array.isArray(parsed)) records = (parsed as Partial<PushSubscriptionRecord>[]).filter((r): r is PushSubscriptionRecord => typeof r?.tokenId === 'string' && r.tokenId !== '');
    } catch {
      records = []; // a damaged file loses subscriptions, not the hub: browsers resubscribe on next visit
    }
  }
  const save = () => {
    const tmp = `${options.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(records), { mode: 0o600 });
    renameSync(tmp, options.path);
  };

  return {
    add(input: { namespace: Namespace; subscription: PushSubscriptionJson; tokenId: string; label: string; device: string | null; now: number }): void {
      const { endpoint, keys } = input.subscription;
      records = records.filter((r) => r.endpoint !== endpoint);
      records.push({
        namespace: input.namespace,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        createdAt: input.now,
        tokenId: input.tokenId,
        label: input.label,
        ...(input.device ? { device: input.device } : {}),
      });
      const mine = records.filter((r) => r.namespace === input.namespace);
      if (mine.length > MAX_SUBSCRIPTIONS_PER_NAMESPACE) {
        const oldest = mine.sort((a, b) => a.createdAt - b.createdAt)[0]!;
        records = records.filter((r) => r !== oldest);
      }
      save();
    },
    /** Only the namespace that owns an endpoint can remove it. */
    remove(input: { namespace: Namespace; endpoint: string }): boolean {
      const before = records.length;
      records = records.filter((r) => !(r.namespace === input.namespace && r.endpoint === input.endpoint));
      if (records.length === before) return false;
      save();
      return true;
    },
    /** The push service said the subscription is gone (404/410). */
    forget(endpoint: string): void {
      const before = records.length;
      records = records.filter((r) => r.endpoint !== endpoint);
      if (records.length !== before) save();
    },
    /** Every subscription made by a token that is now revoked (or gone). */
    forgetToken(tokenId: string): void {
      const before = records.length;
      records = records.filter((r) => r.tokenId !== tokenId);
      if (records.length !== before) save();
    },
    list(namespace: Namespace): PushSubscriptionRecord[] {
      return records.filter((r) => r.namespace === namespace);
    },
  };
}
