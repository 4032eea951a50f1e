// devices.test.ts: "Pair once" end to end on a real hub (issue 38). A phone paired over https or
// loopback stays signed in past its short session, renewed by an HttpOnly cookie; revoked it is out
// at once, its socket closed and no push reaches it; a replayed refresh secret revokes the device;
// and the chain a phone starts (its codes, the devices they paired, theirs) ends with it.
// Real hub, real sockets and HTTP on 127.0.0.1, the local push service of push-endpoint.ts.
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { DeviceListSchema, LoginResponseSchema, PairCodeCreatedSchema, type LoginResponse } from '@tether/shared';
import { revokeAccessToken } from '@tether/hub';
import { connectSocket, emitAck, startHub, type HubHandle } from '../harness/hub.ts';
import { createPushKeys, startPushEndpoint } from '../harness/push-endpoint.ts';
import { useCleanups } from '../harness/cleanups.ts';

const defer = useCleanups();
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/** One browser's cookie for the refresh route, as a browser keeps it (the last Set-Cookie wins). */
type Phone = { login: LoginResponse; cookie: string | null; setCookie: string | null; tokenId: string };

function refreshCookieOf(response: Response): { value: string | null; header: string | null } {
  const header = response.headers.getSetCookie().find((c) => c.startsWith('tether_refresh=')) ?? null;
  const value = header ? (/^tether_refresh=([^;]*)/.exec(header)?.[1] ?? '') : null;
  return { value: value === '' ? null : value, header };
}

async function makeCode(hub: HubHandle, credential: string): Promise<string> {
  const made = await fetch(`${hub.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${credential}` } });
  expect(made.status).toBe(201);
  return PairCodeCreatedSchema.parse(await made.json()).code;
}

async function pairPhone(hub: HubHandle, code: string, origin: string | null = hub.url): Promise<Phone> {
  const before = new Set((await hub.store.listTokens()).map((t) => t.id));
  const res = await fetch(`${hub.url}/api/auth/pair`, {
    method: 'POST',
    body: JSON.stringify({ code }),
    headers: { 'user-agent': ANDROID, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
  });
  expect(res.status).toBe(200);
  const cookie = refreshCookieOf(res);
  const tokenId = (await hub.store.listTokens()).find((t) => !before.has(t.id))!.id;
  return { login: LoginResponseSchema.parse(await res.json()), cookie: cookie.value, setCookie: cookie.header, tokenId };
}

const refresh = (hub: HubHandle, cookie: string | null) =>
  fetch(`${hub.url}/api/auth/refresh`, { method: 'POST', headers: { origin: hub.url, ...(cookie ? { cookie: `tether_refresh=${cookie}` } : {}) } });
const sessions = (hub: HubHandle, session: string) => fetch(`${hub.url}/api/sessions`, { headers: { authorization: `Bearer ${session}` } });
const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.connected ? socket.once('disconnect', () => resolve()) : resolve()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('paired once over loopback: renewed past its short session by its cookie; a replayed secret revokes it, its socket closes at once and no push reaches it', async () => {
  // Sessions of 3 s, a grace of 300 ms for two tabs; the sweep is slow (60 s) so that "at once" means at once.
  const hub = await startHub({ deviceSessionMs: 3000, deviceRefreshGraceMs: 300, revocationCheckMs: 60_000, devPushEndpoints: true });
  defer(() => hub.stop());
  const service = startPushEndpoint();
  defer(() => service.stop());

  const phone = await pairPhone(hub, await makeCode(hub, hub.token));
  expect(phone.login.renewable).toBe(true);
  expect(phone.login.expiresAt).toBeLessThanOrEqual(Date.now() + 3000);
  // The secret is in a cookie the page's script cannot read, sent only to the refresh route.
  expect(phone.setCookie).toMatch(/HttpOnly/);
  expect(phone.setCookie).toMatch(/Secure/);
  expect(phone.setCookie).toMatch(/SameSite=Strict/);
  expect(phone.setCookie).toMatch(/Path=\/api\/auth\/refresh/);
  expect(phone.setCookie).toMatch(/Max-Age=2592000/);
  expect(JSON.stringify(phone.login)).not.toContain(phone.cookie!);

  const keys = createPushKeys();
  const subscribed = await fetch(`${hub.url}/api/push/subscribe`, {
    method: 'POST',
    headers: { authorization: `Bearer ${phone.login.session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ subscription: { endpoint: `${service.url}/sub/phone`, keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
  });
  expect(subscribed.status).toBe(201);
  const socket = await connectSocket({ url: hub.url, nsp: '/web', token: phone.login.session });
  defer(() => socket.close());

  // Past its short session (the expiry it was told is the one the hub enforces): the old session is
  // refused on REST, the cookie renews it.
  await sleep(phone.login.expiresAt - Date.now() + 50);
  expect((await sessions(hub, phone.login.session)).status).toBe(401);
  const first = await refresh(hub, phone.cookie);
  expect(first.status).toBe(200);
  const renewed = LoginResponseSchema.parse(await first.json());
  const rotated = refreshCookieOf(first).value;
  expect(rotated).not.toBeNull();
  expect(rotated).not.toBe(phone.cookie);
  expect((await sessions(hub, renewed.session)).status).toBe(200);
  // The socket opened with the first session is still up: it lives with the device, not the session.
  expect(socket.connected).toBe(true);
  // A refresh without a cookie is refused.
  expect((await refresh(hub, null)).status).toBe(401);

  // A second tab, at once, with the secret just replaced: a session, and no new cookie.
  const secondTab = await refresh(hub, phone.cookie);
  expect(secondTab.status).toBe(200);
  expect(refreshCookieOf(secondTab).header).toBeNull();

  // Someone copied the first cookie and uses it after the grace: the device is revoked, now.
  await sleep(400);
  const gone = closed(socket);
  const replay = await refresh(hub, phone.cookie);
  expect(replay.status).toBe(401);
  expect(((await replay.json()) as { error: string }).error).toMatch(/used from somewhere else/);
  expect(refreshCookieOf(replay).header).toMatch(/^tether_refresh=;/);
  await gone;
  expect((await sessions(hub, renewed.session)).status).toBe(401);
  expect((await refresh(hub, rotated)).status).toBe(401);
  expect((await hub.store.getToken({ id: phone.tokenId }))?.revokedAt).not.toBeNull();

  // No push reaches it: an approval waits, nobody is looking, and the push service hears nothing.
  const runner = await connectSocket({ url: hub.url, nsp: '/cli', token: hub.token });
  defer(() => runner.close());
  const sessionId = randomUUID();
  expect((await emitAck(runner, 'session:register', { id: sessionId, cwd: '/w', launchKind: 'pty', status: 'idle' })).ok).toBe(true);
  expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
  // A second subscriber that is live proves a push went out, and only to it.
  const desk = createPushKeys();
  expect(
    (
      await fetch(`${hub.url}/api/push/subscribe`, {
        method: 'POST',
        headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subscription: { endpoint: `${service.url}/sub/desk`, keys: { p256dh: desk.p256dh, auth: desk.auth } } }),
      })
    ).status,
  ).toBe(201);
  expect((await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'permission', toolName: 'Bash', toolInput: { command: 'pwd' }, toolUseId: null, createdAt: Date.now() })).ok).toBe(true);
  expect((await service.next()).path).toBe('/sub/desk');
  expect(service.received.map((p) => p.path)).toEqual(['/sub/desk']);
}, 60_000);

it('over plain http on a LAN: no cookie, today\'s 12 h session; and a request without an Origin gets none either', async () => {
  const hub = await startHub();
  defer(() => hub.stop());
  const lan = await pairPhone(hub, await makeCode(hub, hub.token), 'http://192.168.1.20:8787');
  expect(lan.setCookie).toBeNull();
  expect(lan.login.renewable).toBeUndefined();
  expect(lan.login.expiresAt).toBeGreaterThan(Date.now() + 11 * 60 * 60 * 1000);
  const script = await pairPhone(hub, await makeCode(hub, hub.token), null);
  expect(script.setCookie).toBeNull();
}, 30_000);

it('the chain a phone starts ends with it: its codes, the devices they paired and theirs; a device signs out only itself', async () => {
  const hub = await startHub({ revocationCheckMs: 200 });
  defer(() => hub.stop());
  const phone = await pairPhone(hub, await makeCode(hub, hub.token));
  const tablet = await pairPhone(hub, await makeCode(hub, phone.login.session));
  const watch = await pairPhone(hub, await makeCode(hub, tablet.login.session));
  const unused = await makeCode(hub, watch.login.session);
  const other = await pairPhone(hub, await makeCode(hub, hub.token));

  // The list every device sees: itself first; only itself may be signed out from a device session.
  const list = await fetch(`${hub.url}/api/devices`, { headers: { authorization: `Bearer ${tablet.login.session}` } });
  const listed = DeviceListSchema.parse(await list.json());
  expect(listed.canRevokeOthers).toBe(false);
  const devices = listed.devices;
  expect(devices.map((d) => d.id).sort()).toEqual([phone.tokenId, tablet.tokenId, watch.tokenId, other.tokenId].sort());
  expect(devices[0]).toMatchObject({ id: tablet.tokenId, current: true, label: 'paired device ' + new Date().toISOString().slice(0, 10) + ' Android Chrome' });
  expect((await fetch(`${hub.url}/api/devices/${phone.tokenId}`, { method: 'DELETE', headers: { authorization: `Bearer ${tablet.login.session}` } })).status).toBe(403);
  expect((await fetch(`${hub.url}/api/devices/not-an-id`, { method: 'DELETE', headers: { authorization: `Bearer ${tablet.login.session}` } })).status).toBe(400);

  const sockets = await Promise.all([phone, tablet, watch, other].map((p) => connectSocket({ url: hub.url, nsp: '/web', token: p.login.session })));
  defer(() => sockets.forEach((s) => s.close()));
  const [phoneGone, tabletGone, watchGone] = sockets.map(closed);

  // Revoked the way `tether token revoke` does it (another process: within one sweep).
  expect(await revokeAccessToken({ store: hub.store, id: phone.tokenId })).toBe(true);
  await Promise.all([phoneGone, tabletGone, watchGone]);
  for (const p of [phone, tablet, watch]) expect((await sessions(hub, p.login.session)).status).toBe(401);
  for (const p of [phone, tablet, watch]) expect((await refresh(hub, p.cookie)).status).toBe(401);
  const late = await fetch(`${hub.url}/api/auth/pair`, { method: 'POST', body: JSON.stringify({ code: unused }), headers: { origin: hub.url } });
  expect(late.status).toBe(410);
  // Another branch lives on.
  expect((await sessions(hub, other.login.session)).status).toBe(200);
  expect(sockets[3]!.connected).toBe(true);

  // The owner's browser (signed in with the access token) may sign out any device: a lost phone.
  const ownerLogin = LoginResponseSchema.parse(await (await fetch(`${hub.url}/api/auth/login`, { method: 'POST', body: JSON.stringify({ token: hub.token }) })).json());
  const owned = DeviceListSchema.parse(await (await fetch(`${hub.url}/api/devices`, { headers: { authorization: `Bearer ${ownerLogin.session}` } })).json());
  expect(owned).toMatchObject({ canRevokeOthers: true, devices: [expect.objectContaining({ id: other.tokenId, current: false })] });
  const otherGone = closed(sockets[3]!);
  expect((await fetch(`${hub.url}/api/devices/${other.tokenId}`, { method: 'DELETE', headers: { authorization: `Bearer ${ownerLogin.session}` } })).status).toBe(200);
  await otherGone;

  // Sign-out: the device of the cookie and the session, at once; its cookie cleared.
  const sweepFree = await startHub({ revocationCheckMs: 60_000 });
  defer(() => sweepFree.stop());
  const leaving = await pairPhone(sweepFree, await makeCode(sweepFree, sweepFree.token));
  const leavingSocket = await connectSocket({ url: sweepFree.url, nsp: '/web', token: leaving.login.session });
  defer(() => leavingSocket.close());
  const left = closed(leavingSocket);
  const out = await fetch(`${sweepFree.url}/api/auth/refresh`, {
    method: 'DELETE',
    headers: { origin: sweepFree.url, cookie: `tether_refresh=${leaving.cookie}`, authorization: `Bearer ${leaving.login.session}` },
  });
  expect(out.status).toBe(200);
  expect(refreshCookieOf(out).header).toMatch(/^tether_refresh=;/);
  await left;
  expect((await sessions(sweepFree, leaving.login.session)).status).toBe(401);
  expect((await sweepFree.store.getToken({ id: leaving.tokenId }))?.revokedAt).not.toBeNull();
  // The owner's token is untouched by a device signing out.
  expect((await sessions(sweepFree, sweepFree.token)).status).toBe(200);
}, 60_000);
