// web-push.test.ts: one push sent by the library's encryption and our fetch: RFC 8291/8292 checked by
// the harness's own code, the outcomes (sent, gone, failed; never a throw), the push service's answer
// read only to its cap (a real server streaming 50 MB), and the hub's VAPID key file.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { createPushKeys, decryptPush, startPushEndpoint, verifyVapid } from '../../../tests/harness/push-endpoint.ts';
import { startOversizeServer } from '../../../tests/fixtures/oversize-answer.ts';
import { PUSH_ANSWER_MAX_BYTES, PUSH_TTL_SEC, sendWebPush } from './web-push.ts';
import { loadVapidKeys } from './vapid.ts';
import { testDir } from '../testing/test-dir.ts';


/** A fetch that records the one request and answers `status`. */
function recordingFetch(status: number) {
  const seen: Array<{ url: string; headers: Headers; body: Buffer }> = [];
  const fetchFn = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), headers: new Headers(init?.headers), body: Buffer.from(init!.body as Uint8Array) });
    return new Response(status === 201 ? null : 'nope', { status });
  }) as typeof fetch;
  return { seen, fetchFn };
}

describe('sendWebPush (web-push library, sent with fetch)', () => {
  it('encrypts to the subscription (RFC 8291) and signs for the endpoint origin (RFC 8292), fresh each time', async () => {
    const keys = loadVapidKeys({ path: join(testDir('tether-vapid-'), 'vapid.json'), subject: 'mailto:me@example.net' });
    const browser = createPushKeys();
    const target = { endpoint: 'https://push.example.net/send/abc123', p256dh: browser.p256dh, auth: browser.auth };
    const { seen, fetchFn } = recordingFetch(201);
    const payload = { title: 'Allow Bash?', body: 'rm -rf build' };
    expect(await sendWebPush({ target, payload, keys, fetchFn })).toEqual({ kind: 'sent' });
    expect(await sendWebPush({ target, payload, keys, fetchFn, urgency: 'normal' })).toEqual({ kind: 'sent' });
    const [a, b] = seen as [(typeof seen)[0], (typeof seen)[0]];
    expect(a.url).toBe(target.endpoint);
    expect(a.headers.get('content-encoding')).toBe('aes128gcm');
    expect(a.headers.get('ttl')).toBe(String(PUSH_TTL_SEC));
    expect([a.headers.get('urgency'), b.headers.get('urgency')]).toEqual(['high', 'normal']);
    // Decrypted by the harness's own RFC 8291 code, not the library's.
    expect(JSON.parse(decryptPush({ body: a.body, keys: browser }))).toEqual(payload);
    expect(JSON.parse(decryptPush({ body: b.body, keys: browser }))).toEqual(payload);
    expect(a.body.equals(b.body)).toBe(false);
    expect(verifyVapid({ authorization: a.headers.get('authorization')!, publicKey: keys.publicKey, endpoint: target.endpoint })).toMatchObject({
      sub: 'mailto:me@example.net',
    });
  });

  it('says gone for 404/410, failed (never throws) for other answers and bad keys', async () => {
    const keys = loadVapidKeys({ path: join(testDir('tether-vapid-'), 'vapid.json') });
    const browser = createPushKeys();
    const target = { endpoint: 'https://push.example.net/x', p256dh: browser.p256dh, auth: browser.auth };
    expect(await sendWebPush({ target, payload: {}, keys, fetchFn: recordingFetch(410).fetchFn })).toEqual({ kind: 'gone' });
    expect(await sendWebPush({ target, payload: {}, keys, fetchFn: recordingFetch(404).fetchFn })).toEqual({ kind: 'gone' });
    expect(await sendWebPush({ target, payload: {}, keys, fetchFn: recordingFetch(500).fetchFn })).toEqual({ kind: 'failed', status: 500, reason: 'nope' });
    const broken = await sendWebPush({ target: { ...target, p256dh: 'AAAA' }, payload: {}, keys, fetchFn: recordingFetch(201).fetchFn });
    expect(broken).toMatchObject({ kind: 'failed', status: 0 });
  });
});

describe('sendWebPush against a push service gone wrong (a real server on 127.0.0.1)', () => {
  const answerBytes = 50 * 1024 * 1024;

  it('reads a 50 MB failure answer only to its cap, says so, and the next push goes out', async () => {
    const keys = loadVapidKeys({ path: join(testDir('tether-vapid-'), 'vapid.json') });
    const browser = createPushKeys();
    const flood = startOversizeServer({ status: 500, bytes: answerBytes, contentType: 'text/plain' });
    const healthy = startPushEndpoint();
    try {
      expect(PUSH_ANSWER_MAX_BYTES).toBe(4 * 1024);
      const target = { endpoint: `${flood.url}/send/abc`, p256dh: browser.p256dh, auth: browser.auth };
      expect(await sendWebPush({ target, payload: { title: 'Allow Bash?' }, keys })).toEqual({
        kind: 'failed',
        status: 500,
        reason: 'the push service sent an answer over 4 KiB',
      });
      await vi.waitFor(() => expect(flood.tally.brokenOff).toBe(1));
      expect(flood.tally.sentBytes).toBeLessThan(answerBytes);
      // The same sender pushes on: nothing was left holding it.
      const next = { endpoint: `${healthy.url}/send/def`, p256dh: browser.p256dh, auth: browser.auth };
      expect(await sendWebPush({ target: next, payload: { title: 'next' }, keys })).toEqual({ kind: 'sent' });
      expect(JSON.parse(decryptPush({ body: (await healthy.next()).body, keys: browser }))).toEqual({ title: 'next' });
    } finally {
      await flood.stop();
      await healthy.stop();
    }
  });

  it('drops the body of an answer that says all by its status (sent, gone) without reading it', async () => {
    const keys = loadVapidKeys({ path: join(testDir('tether-vapid-'), 'vapid.json') });
    const browser = createPushKeys();
    for (const [status, kind] of [[201, 'sent'], [410, 'gone']] as const) {
      const flood = startOversizeServer({ status, bytes: answerBytes, contentType: 'text/plain' });
      try {
        const target = { endpoint: `${flood.url}/send/abc`, p256dh: browser.p256dh, auth: browser.auth };
        expect(await sendWebPush({ target, payload: {}, keys })).toEqual({ kind });
        await vi.waitFor(() => expect(flood.tally.brokenOff).toBe(1));
        expect(flood.tally.sentBytes).toBeLessThan(answerBytes);
      } finally {
        await flood.stop();
      }
    }
  });
});

describe('loadVapidKeys', () => {
  it('makes a key pair once and keeps it, private to the hub user', () => {
    const path = join(testDir('tether-vapid-'), 'vapid.json');
    const first = loadVapidKeys({ path });
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(loadVapidKeys({ path })).toEqual(first);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ publicKey: first.publicKey, privateKey: first.privateKey });
  });

  it('reads the JWK file of hubs from before the library, so their subscriptions keep working', async () => {
    const path = join(testDir('tether-vapid-'), 'vapid.json');
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = privateKey.export({ format: 'jwk' });
    const publicKey = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]).toString('base64url');
    writeFileSync(path, JSON.stringify({ publicKey, privateJwk: jwk }));
    const keys = loadVapidKeys({ path });
    expect(keys).toMatchObject({ publicKey, privateKey: jwk.d });
    const browser = createPushKeys();
    const target = { endpoint: 'https://push.example.net/y', p256dh: browser.p256dh, auth: browser.auth };
    const { seen, fetchFn } = recordingFetch(201);
    await sendWebPush({ target, payload: { ok: 1 }, keys, fetchFn });
    expect(verifyVapid({ authorization: seen[0]!.headers.get('authorization')!, publicKey, endpoint: target.endpoint }).sub).toMatch(/^mailto:/);
  });
});
