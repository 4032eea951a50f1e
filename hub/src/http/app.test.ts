// app.test.ts: the REST API in process with app.request (no port), on a real SQLite file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatMessageInputSchema, HubFeaturesSchema, MAX_PAYLOAD_BYTES, PROTOCOL_VERSION, SessionRegistrationSchema, type HubFeatures } from '@tether/shared';
import { httpAppParts } from '../testing/http-parts.ts';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { createAccessToken, revokeAccessToken } from '../auth/tokens.ts';
import { createHttpApp, LOGIN_MAX_FAILURES } from './app.ts';

const S1 = '11111111-1111-4111-8111-111111111111';
const S_OTHER = '22222222-2222-4222-8222-222222222222';

let dir: string;
let store: Store;
let app: ReturnType<typeof createHttpApp>;
let token: string;
let otherToken: string;

function build(options: Pick<Parameters<typeof createHttpApp>[0], 'webDist' | 'terminalMemory' | 'features'> = {}) {
  return createHttpApp({
    ...httpAppParts(store),
    ...options,
  });
}
const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}` } });
const login = (body: unknown, ip = '10.0.0.1') =>
  app.request('/api/auth/login', { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) }, { ip });

beforeEach(async () => {
  ({ dir, store } = openTempStore('tether-http-'));
  app = build();
  token = (await createAccessToken({ store, namespace: 'alpha', label: 'laptop' })).token;
  otherToken = (await createAccessToken({ store, namespace: 'beta' })).token;
  await store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id: S1, cwd: '/a', launchKind: 'pty' }), now: 1 });
  await store.registerSession({ namespace: 'beta', registration: SessionRegistrationSchema.parse({ id: S_OTHER, cwd: '/b', launchKind: 'headless' }), now: 1 });
  await store.appendMessages({
    namespace: 'alpha',
    sessionId: S1,
    messages: Array.from({ length: 7 }, (_, i) =>
      ChatMessageInputSchema.parse({ id: `m${i + 1}`, role: 'assistant', content: [{ type: 'text', text: `t${i + 1}` }], createdAt: i }),
    ),
  });
});
afterEach(() => removeTempStore({ dir, store }));

describe('http app', () => {
  it('answers /healthz without auth', async () => {
    const res = await app.request('/healthz');
    expect(await res.json()).toEqual({ ok: true, version: '9.9.9', protocol: PROTOCOL_VERSION.major, shell: false });
  });

  it('tells /healthz what the terminal logs hold in all, and nothing more about the terminals', async () => {
    const withTerminals = build({ terminalMemory: () => ({ logBytes: 12_345, budgetBytes: 256 * 1024 * 1024, liveTerminals: 3, capBytes: 4 * 1024 * 1024 }) });
    const body = await (await withTerminals.request('/healthz')).json();
    expect(body).toEqual({ ok: true, version: '9.9.9', protocol: PROTOCOL_VERSION.major, shell: false, terminals: { logBytes: 12_345, budgetBytes: 256 * 1024 * 1024 } });
  });

  it('refuses /api without a valid credential', async () => {
    for (const init of [{}, auth('nope'), auth('tth_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), { headers: { authorization: token } }]) {
      const res = await app.request('/api/sessions', init);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'unauthorized' });
    }
  });

  it('logs in with a token and accepts the web session as bearer', async () => {
    const res = await login({ token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { session: string; namespace: string; expiresAt: number };
    expect(body.namespace).toBe('alpha');
    expect(body.expiresAt).toBeGreaterThan(Date.now() + 11 * 3600_000);
    const list = await app.request('/api/sessions', auth(body.session));
    expect(((await list.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id)).toEqual([S1]);
  });

  it('rejects revoked tokens and the web sessions they bought', async () => {
    const { session } = (await (await login({ token })).json()) as { session: string };
    const id = (await store.listTokens({ namespace: 'alpha' }))[0]!.id;
    await revokeAccessToken({ store, id });
    expect((await app.request('/api/sessions', auth(token))).status).toBe(401);
    expect((await app.request('/api/sessions', auth(session))).status).toBe(401);
    expect((await login({ token })).status).toBe(401);
  });

  it('a share link made with a token (or its web session) stops working when that token is revoked', async () => {
    const { session } = (await (await login({ token })).json()) as { session: string };
    const made = (await (await app.request(`/api/sessions/${S1}/share`, { method: 'POST', body: '{}', ...auth(session) })).json()) as { token: string };
    expect((await app.request(`/api/share/${made.token}`)).status).toBe(200);
    await revokeAccessToken({ store, id: (await store.listTokens({ namespace: 'alpha' }))[0]!.id });
    expect((await app.request(`/api/share/${made.token}`)).status).toBe(401);
  });

  it('limits failed logins per address with Retry-After, and the right token still logs in (issue 19, finding 3)', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) expect((await login({ token: 'tth_wrongwrongwrongwrongwrong' })).status).toBe(401);
    const limited = await login({ token: 'tth_wrongwrongwrongwrongwrong' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited' });
    expect((await login({ token })).status).toBe(200);
    expect((await login({ token: 'tth_wrongwrongwrongwrongwrong' }, '10.0.0.2')).status).toBe(401);
  });

  it('limits wrong bearer credentials the same way; a valid bearer from that address still works', async () => {
    const wrong = { headers: { authorization: 'Bearer tth_notarealtokennotarealtoken' } };
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_MAX_FAILURES; i++) statuses.push((await app.request('/api/sessions', wrong, { ip: '10.0.0.3' })).status);
    expect(statuses).toEqual([...Array(LOGIN_MAX_FAILURES).fill(401), 429]);
    expect((await app.request('/api/sessions', auth(token), { ip: '10.0.0.3' })).status).toBe(200);
    // Garbage that is not shaped like a credential is no guess: 401, never counted.
    for (let i = 0; i < 20; i++) expect((await app.request('/api/sessions', { headers: { authorization: 'Bearer garbage' } }, { ip: '10.0.0.4' })).status).toBe(401);
  });

  it('parses login bodies with the shared schema', async () => {
    expect((await login('not json')).status).toBe(400);
    expect((await login({ token: 5 })).status).toBe(400);
    expect((await login({ token, extra: 1 })).status).toBe(400);
    const big = await login({ token: 'x'.repeat(MAX_PAYLOAD_BYTES + 10) });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'too_large' });
  });

});

describe('http app: sessions, machines, config and the web app', () => {
  it('returns a session with pending and audit, 404 for another namespace, 400 for a bad id', async () => {
    const res = await app.request(`/api/sessions/${S1}`, auth(token));
    expect(await res.json()).toMatchObject({ session: { id: S1, lastSeq: 7 }, pending: [], audit: [] });
    const foreign = await app.request(`/api/sessions/${S_OTHER}`, auth(token));
    const missing = await app.request(`/api/sessions/33333333-3333-4333-8333-333333333333`, auth(token));
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual(await missing.json());
    expect((await app.request('/api/sessions/not-a-uuid', auth(token))).status).toBe(400);
  });

  it('pages messages after, before and latest', async () => {
    const page = async (q: string) => {
      const res = await app.request(`/api/sessions/${S1}/messages${q}`, auth(token));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { messages: { seq: number }[]; more: boolean };
      return [body.messages.map((m) => m.seq), body.more];
    };
    expect(await page('?after=2&limit=3')).toEqual([[3, 4, 5], true]);
    expect(await page('?before=4&limit=2')).toEqual([[2, 3], true]);
    expect(await page('?limit=3')).toEqual([[5, 6, 7], true]);
    expect(await page('')).toEqual([[1, 2, 3, 4, 5, 6, 7], false]);
    for (const bad of ['?after=1&before=3', '?limit=0', '?limit=501', '?after=-1', '?after=x', '?foo=1']) {
      const res = await app.request(`/api/sessions/${S1}/messages${bad}`, auth(token));
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'bad_request' });
    }
    expect((await app.request(`/api/sessions/${S_OTHER}/messages`, auth(token))).status).toBe(404);
  });

  it('lists machines of the namespace only', async () => {
    await store.upsertMachine({ namespace: 'beta', machine: { id: S_OTHER, name: 'b', os: 'linux', user: 'u', home: '/h' }, now: 1 });
    expect(await (await app.request('/api/machines', auth(token))).json()).toEqual({ machines: [] });
    expect(((await (await app.request('/api/machines', auth(otherToken))).json()) as { machines: unknown[] }).machines).toHaveLength(1);
  });

  it('GET /api/config says how the hub is installed, in the shared shape; a hub given another shape does not start', async () => {
    const checkout = build({ features: { shell: false, install: 'checkout' } });
    const res = await checkout.request('/api/config', auth(token));
    expect(res.status).toBe(200);
    expect(HubFeaturesSchema.parse(await res.json())).toEqual({ shell: false, install: 'checkout' });
    // Unsaid (a hub embedded by a test): absent, and the web takes it for an installed tether.
    expect(await (await app.request('/api/config', auth(token))).json()).toEqual({ shell: false });
    expect(() => build({ features: { shell: false, install: 'homebrew' } as unknown as HubFeatures })).toThrow(/install/);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await app.request('/api/nope', auth(token));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('says how to build the web app when it is missing', async () => {
    const res = await app.request('/');
    expect(await res.text()).toContain('web app not built, run npm start');
  });

  it('serves the web app with SPA fallback, security headers and no path escape', async () => {
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>tether</title>');
    writeFileSync(join(dist, 'assets', 'app-abc.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    app = build({ webDist: dist });
    const index = await app.request('/');
    expect(await index.text()).toContain('<title>tether</title>');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(index.headers.get('x-frame-options')).toBe('DENY');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await (await app.request('/sessions/abc')).text()).toContain('<title>tether</title>');
    const asset = await app.request('/assets/app-abc.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
    expect((await app.request('/assets/missing.js')).status).toBe(404);
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt']) {
      expect(await (await app.request(path)).text()).not.toBe('secret');
    }
  });
});
