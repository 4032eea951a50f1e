// vapid.ts: the hub's VAPID key pair (RFC 8292), made on first start and kept in TETHER_HOME.
// Browsers subscribe with the public key, so it must outlive restarts: a new key would silently
// orphan every subscription.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync, type webcrypto } from 'node:crypto';
import { base64UrlDecode, base64UrlEncode, type VapidKeys } from './web-push.ts';

/** Where push services can reach whoever runs this hub; overridable for a real deployment. */
const DEFAULT_SUBJECT = 'mailto:tether-hub@localhost';

type StoredKeys = { publicKey: string; privateJwk: webcrypto.JsonWebKey };

/** A new key pair, as stored (JSON). Several hubs behind one URL share one, through their database. */
export function makeVapidKeys(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = privateKey.export({ format: 'jwk' });
  const publicKey = base64UrlEncode(Buffer.concat([Buffer.from([0x04]), base64UrlDecode(privateJwk.x!), base64UrlDecode(privateJwk.y!)]));
  const stored: StoredKeys = { publicKey, privateJwk };
  return JSON.stringify(stored);
}

/** Keys stored as makeVapidKeys() made them, or null when that is not such a key pair. */
export function parseVapidKeys(json: string, subject?: string): VapidKeys | null {
  try {
    const stored = JSON.parse(json) as StoredKeys;
    if (typeof stored.publicKey === 'string' && stored.privateJwk?.d) return { ...stored, subject: subject ?? process.env.TETHER_VAPID_SUBJECT ?? DEFAULT_SUBJECT };
  } catch {
    // not JSON: made anew below
  }
  return null;
}

export function loadVapidKeys(options: { path: string; subject?: string }): VapidKeys {
  const subject = options.subject ?? process.env.TETHER_VAPID_SUBJECT ?? DEFAULT_SUBJECT;
  if (existsSync(options.path)) {
    const keys = parseVapidKeys(readFileSync(options.path, 'utf8'), subject);
    if (keys) return keys;
  }
  const stored = JSON.parse(makeVapidKeys()) as StoredKeys;
  // Written whole or not at all, readable by the hub's user only (it holds a private key).
  const tmp = `${options.path}.tmp`;
  writeFileSync(tmp, JSON.stringify(stored), { mode: 0o600 });
  renameSync(tmp, options.path);
  return { ...stored, subject };
}
