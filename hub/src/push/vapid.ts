// vapid.ts: the hub's VAPID key pair (RFC 8292), made on first start and kept in TETHER_HOME (or,
// for several hubs behind one URL, in their shared database). Browsers subscribe with the public
// key, so it must outlive restarts: a new key would silently orphan every subscription.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import webpush from 'web-push';
import type { VapidKeys } from './web-push.ts';

/** Where push services can reach whoever runs this hub; overridable for a real deployment. */
const DEFAULT_SUBJECT = 'mailto:tether-hub@localhost';

/** As stored. Hubs before the web-push library kept the private key as a JWK; its `d` is the same
 *  32-byte scalar, so those files (and cluster secrets) keep working, with their subscriptions. */
type StoredKeys = { publicKey: string; privateKey?: string; privateJwk?: { d?: string } };

/** A new key pair, as stored (JSON). Several hubs behind one URL share one, through their database. */
export function makeVapidKeys(): string {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return JSON.stringify({ publicKey, privateKey } satisfies StoredKeys);
}

/** Keys stored as makeVapidKeys() (or an older hub) made them, or null when that is not a key pair. */
export function parseVapidKeys(json: string, subject?: string): VapidKeys | null {
  try {
    const stored = JSON.parse(json) as StoredKeys;
    const privateKey = stored.privateKey ?? stored.privateJwk?.d;
    if (typeof stored.publicKey === 'string' && typeof privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey, subject: subject ?? process.env.TETHER_VAPID_SUBJECT ?? DEFAULT_SUBJECT };
    }
  } catch {
    // not JSON: made anew by the caller
  }
  return null;
}

export function loadVapidKeys(options: { path: string; subject?: string }): VapidKeys {
  if (existsSync(options.path)) {
    const keys = parseVapidKeys(readFileSync(options.path, 'utf8'), options.subject);
    if (keys) return keys;
  }
  const stored = makeVapidKeys();
  // Written whole or not at all, readable by the hub's user only (it holds a private key).
  const tmp = `${options.path}.tmp`;
  writeFileSync(tmp, stored, { mode: 0o600 });
  renameSync(tmp, options.path);
  return parseVapidKeys(stored, options.subject)!;
}
