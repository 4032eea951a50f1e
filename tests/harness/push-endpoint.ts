// push-endpoint.ts (harness): a stand-in push service on 127.0.0.1 and a browser's side of a push
// subscription, so tests can prove what the hub sends: the VAPID signature (RFC 8292) and the
// payload, decrypted with the subscription's private key (RFC 8291).
//
//   hub ─POST aes128gcm + Authorization: vapid─► startPushEndpoint() ─► received[] ─► openPush(...)
//
// It is plain http on 127.0.0.1, which a hub refuses as a push endpoint unless started with
// devPushEndpoints (`tether hub --dev-push-endpoints`): startHub({ devPushEndpoints: true }).
// Invariant: stop() closes the server; every POST is recorded, in order, with its raw body.
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';

export type ReceivedPush = { path: string; headers: Record<string, string>; body: Buffer };

export type PushEndpoint = {
  /** Base URL; any path under it is a valid endpoint. */
  url: string;
  received: ReceivedPush[];
  /** Resolves with the next POST (or rejects after timeoutMs). */
  next(timeoutMs?: number): Promise<ReceivedPush>;
  /** What the next POST to any path answers (default 201). */
  respondWith(status: number): void;
  stop(): Promise<void>;
};

export function startPushEndpoint(): PushEndpoint {
  const received: ReceivedPush[] = [];
  const waiters: Array<(push: ReceivedPush) => void> = [];
  let status = 201;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const push: ReceivedPush = {
        path: new URL(req.url).pathname,
        headers: Object.fromEntries(req.headers.entries()),
        body: Buffer.from(await req.arrayBuffer()),
      };
      received.push(push);
      waiters.shift()?.(push);
      return new Response(null, { status });
    },
  });
  let seen = 0;
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    next(timeoutMs = 10_000) {
      if (received.length > seen) return Promise.resolve(received[seen++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no push within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((push) => {
          clearTimeout(timer);
          seen++;
          resolve(push);
        });
      });
    },
    respondWith(next) {
      status = next;
    },
    async stop() {
      await server.stop(true);
    },
  };
}

/** A browser's half of a subscription: its P-256 key pair and auth secret, as toJSON() shows them. */
export type PushKeys = { ecdh: ECDH; p256dh: string; auth: string };

export function createPushKeys(): PushKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8291: decrypts an aes128gcm body with the subscription's private key and auth secret. */
export function decryptPush(options: { body: Buffer; keys: PushKeys }): string {
  const { body } = options;
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const uaPublic = options.keys.ecdh.getPublicKey();
  const ecdhSecret = options.keys.ecdh.computeSecret(serverPublic);
  const ikm = hkdf(Buffer.from(options.keys.auth, 'base64url'), ecdhSecret, Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, serverPublic]), 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // Strip the padding (zeros) and the last-record delimiter (0x02).
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 0x02) throw new Error('push record does not end with the last-record delimiter');
  return plain.subarray(0, end).toString('utf8');
}

/** RFC 8292: checks `Authorization: vapid t=…, k=…` against the hub's public key and the endpoint. */
export function verifyVapid(options: { authorization: string; publicKey: string; endpoint: string; now?: number }): { sub: string; exp: number } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(options.authorization);
  if (!match) throw new Error(`not a vapid Authorization header: ${options.authorization}`);
  const [, token, key] = match as unknown as [string, string, string];
  if (key !== options.publicKey) throw new Error('vapid k= is not the hub public key');
  const [header, claims, signature] = token.split('.') as [string, string, string];
  const raw = Buffer.from(options.publicKey, 'base64url');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!ok) throw new Error('vapid signature does not verify');
  const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg: string };
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number; sub: string };
  if (parsedHeader.alg !== 'ES256') throw new Error(`vapid alg ${parsedHeader.alg}`);
  if (parsed.aud !== new URL(options.endpoint).origin) throw new Error(`vapid aud ${parsed.aud} is not ${new URL(options.endpoint).origin}`);
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  if (!(parsed.exp > now && parsed.exp <= now + 24 * 3600)) throw new Error(`vapid exp ${parsed.exp} out of range`);
  return { sub: parsed.sub, exp: parsed.exp };
}
