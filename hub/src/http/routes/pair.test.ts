// pair.test.ts: POST /api/pair-codes and POST /api/auth/pair through the whole Hono app (app.request,
// no port) on a real SQLite file: a code for the caller's namespace only, redeemed once, the clear
// answers for used and unknown codes, and wrong codes counted with wrong tokens.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoginResponseSchema, PairCodeCreatedSchema } from '@tether/shared';
import { httpAppParts } from '../../testing/http-parts.ts';
import { openTempStore, removeTempStore } from '../../testing/temp-store.ts';
import type { Store } from '../../store/store.ts';
import { createAccessToken } from '../../auth/tokens.ts';
import { createHttpApp, LOGIN_MAX_FAILURES } from '../app.ts';

const PUBLIC_URL = 'https://tether.example.test';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

let dir: string;
let store: Store;
let token: string;

function build(publicUrl: string | null = PUBLIC_URL) {
  return createHttpApp({
    ...httpAppParts(store),
    publicUrl,
  });
}
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
type App = ReturnType<typeof build>;
const makeCode = (app: App, credential: string, body?: string) => app.request('/api/pair-codes', { method: 'POST', headers: bearer(credential), ...(body !== undefined ? { body } : {}) });
const pair = (app: App, body: unknown, ip = '10.0.0.7') =>
  app.request('/api/auth/pair', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'user-agent': IPHONE } }, { ip });

beforeEach(async () => {
  ({ dir, store } = openTempStore('tether-pair-http-'));
  token = (await createAccessToken({ store, namespace: 'alpha', label: 'laptop' })).token;
  await createAccessToken({ store, namespace: 'beta', label: 'other' });
});
afterEach(() => removeTempStore({ dir, store }));

describe('pairing routes', () => {
  it('makes a code for the caller\'s namespace (token or web session) with the phone URL; no namespace can be chosen', async () => {
    const app = build();
    const res = await makeCode(app, token);
    expect(res.status).toBe(201);
    const made = PairCodeCreatedSchema.parse(await res.json());
    expect(made).toMatchObject({ namespace: 'alpha', url: PUBLIC_URL });
    expect(made.expiresAt).toBeGreaterThan(Date.now() + 9 * 60_000);
    const { session } = LoginResponseSchema.parse(await (await app.request('/api/auth/login', { method: 'POST', body: JSON.stringify({ token }) })).json());
    expect((await makeCode(app, session, '{}')).status).toBe(201);
    const other = await makeCode(app, token, JSON.stringify({ namespace: 'beta' }));
    expect(other.status).toBe(400);
    expect((await makeCode(app, token, '{')).status).toBe(400);
    expect((await app.request('/api/pair-codes', { method: 'POST' })).status).toBe(401);
    expect(PairCodeCreatedSchema.parse(await (await makeCode(build(null), token)).json()).url).toBeNull();
  });

  it('redeems a code once into a web session of a new device token; then 410, unknown 401, malformed 400', async () => {
    const app = build();
    const { code } = PairCodeCreatedSchema.parse(await (await makeCode(app, token)).json());
    const res = await pair(app, { code });
    expect(res.status).toBe(200);
    const login = LoginResponseSchema.parse(await res.json());
    expect(login.namespace).toBe('alpha');
    expect(Object.keys(login).sort()).toEqual(['expiresAt', 'namespace', 'session']);
    expect((await app.request('/api/sessions', { headers: bearer(login.session) })).status).toBe(200);
    const devices = (await store.listTokens({ namespace: 'alpha' })).filter((t) => t.label.startsWith('paired device'));
    expect(devices.map((t) => t.label)).toEqual([expect.stringMatching(/^paired device \d{4}-\d{2}-\d{2} iPhone Safari$/)]);

    const again = await pair(app, { code });
    expect(again.status).toBe(410);
    expect(await again.json()).toEqual({ code: 'gone', error: 'this pairing code has expired or was already used; run tether pair for a new one' });
    const unknown = await pair(app, { code: `tpc_${'Z'.repeat(32)}` });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ code: 'unauthorized', error: 'unknown pairing code; run tether pair for a new one' });
    for (const body of ['', '{', { code: 'tth_' + 'A'.repeat(43) }, { code: 'abc' }, { code, namespace: 'beta' }, []]) {
      expect((await pair(app, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await store.listTokens({ namespace: 'alpha' })).length).toBe(2);
  });

  it('counts wrong codes with wrong tokens per address (429 past the limit; malformed bodies do not count); a right code still pairs', async () => {
    const app = build();
    for (let i = 0; i < 50; i++) expect((await pair(app, { code: 'nope' }, '10.0.0.9')).status).toBe(400);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await pair(app, { code: `tpc_${String(i).padStart(32, 'q')}` }, '10.0.0.9')).status).toBe(401);
    const limited = await pair(app, { code: `tpc_${'w'.repeat(32)}` }, '10.0.0.9');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same address is limited for tokens too (one count for every way in).
    expect((await app.request('/api/auth/login', { method: 'POST', body: JSON.stringify({ token: `tth_${'w'.repeat(43)}` }) }, { ip: '10.0.0.9' })).status).toBe(429);
    const { code } = PairCodeCreatedSchema.parse(await (await makeCode(app, token)).json());
    expect((await pair(app, { code }, '10.0.0.9')).status).toBe(200);
  });
});
