import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { SignJWT } from 'jose';
import { createShareLinks } from './share-links.ts';
import { createWebSessionSigner } from './web-session.ts';
import { createAccessToken, revokeAccessToken } from './tokens.ts';

const SID = '00000000-0000-4000-8000-00000000000a';
let dir: string;
let store: Store;
/** The access token that creates the links (links die with it). */
let tokenId: string;
beforeEach(async () => {
  ({ dir, store } = openTempStore('tether-share-'));
  tokenId = (await createAccessToken({ store, namespace: 'default', label: 'me' })).info.id;
});
afterEach(() => removeTempStore({ dir, store }));
const secret = new Uint8Array(32).fill(3);

describe('share links', () => {
  it('verifies until it expires', async () => {
    const links = createShareLinks({ store, secret });
    const now = Date.now();
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 60, createdBy: 'me', tokenId, now });
    expect(await links.verify(link.token, now + 1000)).toMatchObject({ namespace: 'default', sessionId: SID, jti: link.jti });
    expect(await links.verify(link.token, now + 61_000)).toBeNull();
    expect(await links.stillValid({ jti: link.jti, namespace: 'default', tokenId }, now + 61_000)).toBe(false);
  });

  it('is refused once revoked, and only its namespace can revoke it', async () => {
    const links = createShareLinks({ store, secret });
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 600, createdBy: 'me', tokenId });
    const heard: string[] = [];
    links.onRevoked((jti) => heard.push(jti));
    expect(await links.revoke({ namespace: 'beta', sessionId: SID, jti: link.jti })).toBe(false);
    expect(await links.revoke({ namespace: 'default', sessionId: SID, jti: link.jti })).toBe(true);
    expect(heard).toEqual([link.jti]);
    expect(await links.verify(link.token)).toBeNull();
  });

  it('is not a web session, and a web session is not a link', async () => {
    const links = createShareLinks({ store, secret });
    const signer = createWebSessionSigner({ secret });
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 600, createdBy: 'me', tokenId });
    expect(await signer.verify(link.token)).toBeNull();
    const { session } = await signer.sign({ tokenId: 'tok', namespace: 'default' });
    expect(await links.verify(session)).toBeNull();
  });

  it('dies with the access token that created it (issue 19, finding 2)', async () => {
    const links = createShareLinks({ store, secret });
    const other = await createAccessToken({ store, namespace: 'default', label: 'desk' });
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 600, createdBy: 'me', tokenId });
    expect(await links.verify(link.token)).toMatchObject({ jti: link.jti, tokenId });
    await revokeAccessToken({ store, id: tokenId });
    // Another live token of the namespace does not keep it alive: the link was that token's.
    expect((await store.getToken({ id: other.info.id }))?.revokedAt).toBeNull();
    expect(await links.verify(link.token)).toBeNull();
    expect(await links.stillValid({ jti: link.jti, namespace: 'default', tokenId })).toBe(false);
  });

  it('a link from before tokens were recorded lives only while its namespace has a live token', async () => {
    const links = createShareLinks({ store, secret });
    const now = Date.now();
    const jti = 'legacy-link-jti-00000000';
    const legacy = await new SignJWT({ ns: 'default', sid: SID })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer('tether-hub/share')
      .setJti(jti)
      .setExpirationTime(Math.floor(now / 1000) + 600)
      .sign(secret);
    await store.insertShareLink({ link: { jti, namespace: 'default', sessionId: SID, createdBy: 'me', createdAt: now, expiresAt: now + 600_000, revokedAt: null } });
    expect(await links.verify(legacy)).toMatchObject({ jti, tokenId: null });
    await revokeAccessToken({ store, id: tokenId });
    expect(await links.verify(legacy)).toBeNull();
    expect(await links.stillValid({ jti, namespace: 'default', tokenId: null })).toBe(false);
  });
});
