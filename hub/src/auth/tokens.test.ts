import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AccessTokenSchema } from '@tether/shared';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { createAccessToken, hashAccessToken, revokeAccessToken, verifyAccessToken } from './tokens.ts';
import { createCallerResolver } from './namespace.ts';
import { createWebSessionSigner, loadHubSecret } from './web-session.ts';

let dir: string;
let store: Store;
beforeEach(() => void ({ dir, store } = openTempStore('tether-auth-')));
afterEach(() => removeTempStore({ dir, store }));

it('makes 256-bit tth_ tokens, stores only their hash, verifies and revokes them', async () => {
  const { token, info } = await createAccessToken({ store, namespace: 'alpha', label: 'l' });
  expect(AccessTokenSchema.safeParse(token).success).toBe(true);
  expect(token).toMatch(/^tth_[A-Za-z0-9_-]{43}$/);
  expect((await store.getToken({ id: info.id }))?.hash).toBe(hashAccessToken(token));
  expect(JSON.stringify(await store.listTokens())).not.toContain(token.slice(4));
  expect((await verifyAccessToken({ store, token }))?.namespace).toBe('alpha');
  expect(await verifyAccessToken({ store, token: `${token}x` })).toBeNull();
  expect(await verifyAccessToken({ store, token: 'not-a-token' })).toBeNull();
  expect(await revokeAccessToken({ store, id: info.id })).toBe(true);
  expect(await verifyAccessToken({ store, token })).toBeNull();
});

it('creates the hub secret once with mode 0600', () => {
  const path = join(dir, 'home', 'hub-secret');
  const a = loadHubSecret({ path });
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(loadHubSecret({ path })).toEqual(a);
  expect(a.length).toBe(32);
});

it('resolves tokens and web sessions to a caller; a session dies with its token', async () => {
  const signer = createWebSessionSigner({ secret: loadHubSecret({ path: join(dir, 's') }) });
  const resolver = createCallerResolver({ store, signer });
  const { token, info } = await createAccessToken({ store, namespace: 'alpha', label: 'phone' });
  const { session } = await signer.sign({ tokenId: info.id, namespace: 'alpha' });
  expect(await resolver.resolve({ credential: token })).toMatchObject({ namespace: 'alpha', via: 'token', label: 'phone' });
  expect(await resolver.resolve({ credential: session })).toMatchObject({ namespace: 'alpha', via: 'web-session' });
  expect(await resolver.resolve({ credential: session, accept: ['token'] })).toBeNull();
  const other = createWebSessionSigner({ secret: new Uint8Array(32).fill(1) });
  expect(await resolver.resolve({ credential: (await other.sign({ tokenId: info.id, namespace: 'alpha' })).session })).toBeNull();
  const expired = await signer.sign({ tokenId: info.id, namespace: 'alpha', now: Date.now() - 13 * 3600_000 });
  expect(await resolver.resolve({ credential: expired.session })).toBeNull();
  const forged = await signer.sign({ tokenId: info.id, namespace: 'beta' });
  expect(await resolver.resolve({ credential: forged.session })).toBeNull();
  await revokeAccessToken({ store, id: info.id });
  expect(await resolver.resolve({ credential: session })).toBeNull();
  expect(await resolver.resolve({ credential: token })).toBeNull();
});
