// vapid.ts: the hub's VAPID key pair (RFC 8292), made on first start and kept in TETHER_HOME.
// Browsers subscribe with the public key, so it must outlive restarts: a new key would silently
// orphan every subscription.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import webpush from 'web-push';
import type { VapidKeys } from './web-push.ts';

/** Where push services can reach whoever runs this hub; overridable for a real deployment. */
const DEFAULT_SUBJECT = 'mailto:tether-hub@localhost';

/** On disk. Hubs before the web-push library kept the private key as a JWK; its `d` is the same
 *  32-byte scalar, so those files keep working (and keep their subscriptions). */
type StoredKeys = { publicKey: string; privateKey?: string; privateJwk?: { d?: string } };

export function loadVapidKeys(options: { path: string; subject?: string }): VapidKeys {
  const subject = options.subject ?? process.env.TETHER_VAPID_SUBJECT ?? DEFAULT_SUBJECT;
  if (existsSync(options.path)) {
    const stored = JSON.parse(readFileSync(options.path, 'utf8')) as StoredKeys;
    const privateKey = stored.privateKey ?? stored.privateJwk?.d;
    if (typeof stored.publicKey === 'string' && typeof privateKey === 'string') return { publicKey: stored.publicKey, privateKey, subject };
  }
  const fresh = webpush.generateVAPIDKeys();
  const stored: StoredKeys = { publicKey: fresh.publicKey, privateKey: fresh.privateKey };
  // Written whole or not at all, readable by the hub's user only (it holds a private key).
  const tmp = `${options.path}.tmp`;
  writeFileSync(tmp, JSON.stringify(stored), { mode: 0o600 });
  renameSync(tmp, options.path);
  return { publicKey: fresh.publicKey, privateKey: fresh.privateKey, subject };
}
