// web-push.ts: one web push message, encrypted and signed, from node crypto alone.
//
//   payload ─RFC 8291 (ECDH P-256 + HKDF + AES-128-GCM, "aes128gcm")─► body the push service can't read
//   VAPID key ─RFC 8292 (ES256 JWT {aud: endpoint origin, exp, sub})─► Authorization: vapid t=…, k=…
//   POST endpoint ─► 201 (queued) | 404/410 (the subscription is gone: forget it) | other (try later)
//
// Invariant: a payload is encrypted to the subscription's own keys with a fresh server key pair and
// salt every time; nothing reusable is ever sent.
import { createCipheriv, createECDH, createPrivateKey, hkdfSync, randomBytes, sign, type webcrypto } from 'node:crypto';

type JsonWebKey = webcrypto.JsonWebKey;

/** One record holds the whole message: push payloads are small (services cap them near 4 KB). */
const RECORD_SIZE = 4096;
/** A push that waited longer than an hour is about a turn or an approval that is long over. */
export const PUSH_TTL_SEC = 60 * 60;
/** VAPID tokens may live at most 24 h (RFC 8292 §2); 12 h leaves room for clock skew. */
const VAPID_TOKEN_SEC = 12 * 60 * 60;

export function base64UrlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

export function base64UrlDecode(text: string): Buffer {
  return Buffer.from(text, 'base64url');
}

function hkdf(options: { salt: Uint8Array; ikm: Uint8Array; info: Uint8Array; length: number }): Buffer {
  return Buffer.from(hkdfSync('sha256', options.ikm, options.salt, options.info, options.length));
}

/** RFC 8291 §3.4: the aes128gcm body for `payload`, to the browser key `p256dh` with secret `auth`.
 *  `salt` and `serverPrivateKey` are for test vectors only; by default both are fresh. */
export function encryptPushPayload(options: {
  payload: Uint8Array;
  p256dh: string;
  auth: string;
  salt?: Uint8Array;
  serverPrivateKey?: Uint8Array;
}): Buffer {
  const uaPublic = base64UrlDecode(options.p256dh);
  const authSecret = base64UrlDecode(options.auth);
  if (uaPublic.length !== 65 || uaPublic[0] !== 0x04) throw new Error('p256dh is not an uncompressed P-256 point');
  if (authSecret.length < 16) throw new Error('auth secret is shorter than 16 bytes');
  const server = createECDH('prime256v1');
  if (options.serverPrivateKey) server.setPrivateKey(Buffer.from(options.serverPrivateKey));
  else server.generateKeys();
  const asPublic = server.getPublicKey();
  const ecdhSecret = server.computeSecret(uaPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = hkdf({ salt: authSecret, ikm: ecdhSecret, info: keyInfo, length: 32 });
  const salt = Buffer.from(options.salt ?? randomBytes(16));
  const cek = hkdf({ salt, ikm, info: Buffer.from('Content-Encoding: aes128gcm\0'), length: 16 });
  const nonce = hkdf({ salt, ikm, info: Buffer.from('Content-Encoding: nonce\0'), length: 12 });
  // One record: the payload, then the 0x02 delimiter of a last record (no padding).
  if (options.payload.length + 1 + 16 > RECORD_SIZE) throw new Error('push payload too large');
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const ciphertext = Buffer.concat([cipher.update(Buffer.concat([Buffer.from(options.payload), Buffer.from([0x02])])), cipher.final(), cipher.getAuthTag()]);
  const header = Buffer.alloc(16 + 4 + 1);
  salt.copy(header, 0);
  header.writeUInt32BE(RECORD_SIZE, 16);
  header.writeUInt8(asPublic.length, 20);
  return Buffer.concat([header, asPublic, ciphertext]);
}

export type VapidKeys = {
  /** Uncompressed P-256 public key, base64url: what browsers subscribe with. */
  publicKey: string;
  privateJwk: JsonWebKey;
  /** Contact for push services (RFC 8292 `sub`): a mailto: or https: URL. */
  subject: string;
};

/** RFC 8292: `Authorization: vapid t=<ES256 JWT for the endpoint's origin>, k=<public key>`. */
export function vapidAuthorization(options: { endpoint: string; keys: VapidKeys; now?: number }): string {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const header = base64UrlEncode(Buffer.from(JSON.stringify({ typ: 'JWT', alg: 'ES256' })));
  const claims = base64UrlEncode(
    Buffer.from(JSON.stringify({ aud: new URL(options.endpoint).origin, exp: now + VAPID_TOKEN_SEC, sub: options.keys.subject })),
  );
  const key = createPrivateKey({ key: options.keys.privateJwk, format: 'jwk' });
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' });
  return `vapid t=${header}.${claims}.${base64UrlEncode(signature)}, k=${options.keys.publicKey}`;
}

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
export type PushOutcome = { kind: 'sent' } | { kind: 'gone' } | { kind: 'failed'; status: number; reason: string };

/** Encrypts, signs and POSTs one message. Never throws: the caller decides what an outcome means. */
export async function sendWebPush(options: {
  target: PushTarget;
  payload: object;
  keys: VapidKeys;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
  fetchFn?: typeof fetch;
}): Promise<PushOutcome> {
  try {
    const body = encryptPushPayload({
      payload: Buffer.from(JSON.stringify(options.payload)),
      p256dh: options.target.p256dh,
      auth: options.target.auth,
    });
    const response = await (options.fetchFn ?? fetch)(options.target.endpoint, {
      method: 'POST',
      headers: {
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
        TTL: String(PUSH_TTL_SEC),
        Urgency: options.urgency ?? 'high',
        Authorization: vapidAuthorization({ endpoint: options.target.endpoint, keys: options.keys }),
      },
      body: new Uint8Array(body),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status === 404 || response.status === 410) return { kind: 'gone' };
    if (!response.ok) return { kind: 'failed', status: response.status, reason: (await response.text().catch(() => '')).slice(0, 200) };
    return { kind: 'sent' };
  } catch (error) {
    return { kind: 'failed', status: 0, reason: error instanceof Error ? error.message : String(error) };
  }
}
