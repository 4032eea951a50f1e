// cache-keys.test.ts: the phone cache key rides on GET /api/sessions for a web login only, is the
// same for the same login and differs between logins, and a revoked login never gets it again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionListSchema } from '@tether/shared';
import { httpAppParts } from '../testing/http-parts.ts';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { createHttpApp } from '../http/app.ts';
import { createAccessToken, revokeAccessToken } from './tokens.ts';
import { createCacheKeys } from './cache-keys.ts';

let dir: string;
let store: Store;
let app: ReturnType<typeof createHttpApp>;

beforeEach(() => {
  ({ dir, store } = openTempStore('tether-cache-key-'));
  app = createHttpApp({ ...httpAppParts(store), cacheKeys: createCacheKeys({ secret: new Uint8Array(32).fill(9) }) });
});
afterEach(() => removeTempStore({ dir, store }));

const bearer = (credential: string) => ({ headers: { authorization: `Bearer ${credential}` } });

async function webLogin(token: string): Promise<string> {
  const res = await app.request('/api/auth/login', { method: 'POST', body: JSON.stringify({ token }) }, { ip: '10.0.0.1' });
  return ((await res.json()) as { session: string }).session;
}

async function listAs(credential: string) {
  const res = await app.request('/api/sessions', bearer(credential));
  return { status: res.status, cacheControl: res.headers.get('cache-control'), body: res.status === 200 ? SessionListSchema.parse(await res.json()) : null };
}

describe('phone cache keys', () => {
  it('gives a web login its key with the session list, never cached on the way', async () => {
    const { token } = await createAccessToken({ store, namespace: 'alpha' });
    const first = await listAs(await webLogin(token));
    expect(first.status).toBe(200);
    expect(first.body?.cacheKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.cacheControl).toBe('no-store');
    // The same login (a renewed session) reads what it wrote.
    expect((await listAs(await webLogin(token))).body?.cacheKey).toBe(first.body?.cacheKey);
  });

  it('gives another login, or another namespace, another key; an access token itself none', async () => {
    const alpha = await createAccessToken({ store, namespace: 'alpha' });
    const alpha2 = await createAccessToken({ store, namespace: 'alpha' });
    const beta = await createAccessToken({ store, namespace: 'beta' });
    const keys = await Promise.all([alpha, alpha2, beta].map(async ({ token }) => (await listAs(await webLogin(token))).body?.cacheKey));
    expect(new Set(keys).size).toBe(3);
    const cli = await listAs(alpha.token);
    expect(cli.status).toBe(200);
    expect(cli.body?.cacheKey).toBeUndefined();
  });

  it('gives a revoked login no key: the list is refused', async () => {
    const { token, info } = await createAccessToken({ store, namespace: 'alpha' });
    const session = await webLogin(token);
    expect((await listAs(session)).body?.cacheKey).toBeDefined();
    await revokeAccessToken({ store, id: info.id });
    const after = await listAs(session);
    expect(after.status).toBe(401);
    expect(after.body).toBeNull();
  });
});
