import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../store/sqlite/sqlite-store.ts';
import type { Store } from '../store/store.ts';
import { createShareLinks } from './share-links.ts';
import { createWebSessionSigner } from './web-session.ts';

const SID = '00000000-0000-4000-8000-00000000000a';
let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-share-'));
  store = createSqliteStore({ path: join(dir, 'hub.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const secret = new Uint8Array(32).fill(3);

describe('share links', () => {
  it('verifies until it expires', async () => {
    const links = createShareLinks({ store, secret });
    const now = Date.now();
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 60, createdBy: 'me', now });
    expect(await links.verify(link.token, now + 1000)).toMatchObject({ namespace: 'default', sessionId: SID, jti: link.jti });
    expect(await links.verify(link.token, now + 61_000)).toBeNull();
    expect(await links.stillValid(link.jti, now + 61_000)).toBe(false);
  });

  it('is refused once revoked, and only its namespace can revoke it', async () => {
    const links = createShareLinks({ store, secret });
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 600, createdBy: 'me' });
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
    const link = await links.create({ namespace: 'default', sessionId: SID, expiresInSec: 600, createdBy: 'me' });
    expect(await signer.verify(link.token)).toBeNull();
    const { session } = await signer.sign({ tokenId: 'tok', namespace: 'default' });
    expect(await links.verify(session)).toBeNull();
  });
});
