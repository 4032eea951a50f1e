import { describe, expect, it } from 'vitest';
import { createPushKeys, decryptPush, verifyVapid } from '../../../tests/harness/push-endpoint.ts';
import { encryptPushPayload, vapidAuthorization } from './web-push.ts';
import { generateKeyPairSync } from 'node:crypto';

describe('encryptPushPayload (RFC 8291 aes128gcm)', () => {
  it('matches the RFC 8291 appendix A example byte for byte', () => {
    const body = encryptPushPayload({
      payload: Buffer.from('When I grow up, I want to be a watermelon'),
      p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      auth: 'BTBZMqHH6r4Tts7J_aSIgg',
      salt: Buffer.from('DGv6ra1nlYgDCS1FRnbzlw', 'base64url'),
      serverPrivateKey: Buffer.from('yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw', 'base64url'),
    });
    expect(body.toString('base64url')).toBe(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
  });

  it('round-trips with fresh keys, and a fresh salt and server key every time', () => {
    const keys = createPushKeys();
    const payload = Buffer.from(JSON.stringify({ title: 'Allow Bash?', body: 'rm -rf build' }));
    const a = encryptPushPayload({ payload, p256dh: keys.p256dh, auth: keys.auth });
    const b = encryptPushPayload({ payload, p256dh: keys.p256dh, auth: keys.auth });
    expect(a.equals(b)).toBe(false);
    expect(decryptPush({ body: a, keys })).toBe(payload.toString());
    expect(decryptPush({ body: b, keys })).toBe(payload.toString());
  });
});

describe('vapidAuthorization (RFC 8292)', () => {
  it('signs an ES256 JWT for the endpoint origin that verifies with the public key', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const privateJwk = privateKey.export({ format: 'jwk' });
    const publicKey = Buffer.concat([Buffer.from([4]), Buffer.from(privateJwk.x!, 'base64url'), Buffer.from(privateJwk.y!, 'base64url')]).toString('base64url');
    const endpoint = 'https://push.example.net/send/abc123';
    const authorization = vapidAuthorization({ endpoint, keys: { publicKey, privateJwk, subject: 'mailto:me@example.net' } });
    expect(verifyVapid({ authorization, publicKey, endpoint })).toMatchObject({ sub: 'mailto:me@example.net' });
  });
});
