// devices.test.ts: paired devices on a real SQLite store with a clock of the test's own: a refresh
// rotates the secret, two tabs refreshing together are no replay, the replaced secret presented
// later revokes the device (and what it paired), an idle device is out, and a device session may
// sign out only itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { CONCURRENT_REFRESH_MS, createDevices, DEVICE_SESSION_TTL_MS, renewableOrigin } from './devices.ts';
import { createCallerResolver } from './namespace.ts';
import { createPairing } from './pairing.ts';
import { createAccessToken } from './tokens.ts';
import { createWebSessionSigner } from './web-session.ts';

const DAY = 24 * 60 * 60 * 1000;
const signer = createWebSessionSigner({ secret: new Uint8Array(32).fill(5) });

let dir: string;
let store: Store;
let clock: number;
let revoked: Array<{ namespace: string; tokenIds: string[] }>;

beforeEach(() => {
  ({ dir, store } = openTempStore('tether-devices-'));
  clock = Date.now();
  revoked = [];
});
afterEach(() => removeTempStore({ dir, store }));

function world() {
  const devices = createDevices({ store, signer, revoked: (event) => revoked.push(event), now: () => clock });
  const pairing = createPairing({ store, signer, devices });
  const resolver = createCallerResolver({ store, signer, idle: devices.checkIdle });
  /** A phone pairs over https with a code `creatorTokenId` made. */
  const pair = async (creatorTokenId: string | null, renewable = true) => {
    const made = await pairing.create({ namespace: 'alpha', createdBy: 'x', creatorTokenId, now: clock });
    if (made.kind !== 'created') throw new Error('no code');
    const paired = await pairing.redeem({ code: made.code, userAgent: 'Mozilla/5.0 (iPhone) Safari/604.1', renewable, now: clock });
    if (paired.kind !== 'paired') throw new Error(`not paired: ${paired.kind}`);
    return paired;
  };
  return { devices, pairing, resolver, pair };
}

describe('paired devices', () => {
  it('a renewable pairing gets a short session and a refresh secret; a LAN one the 12 h session and none', async () => {
    const { pair } = world();
    const phone = await pair(null);
    // A JWT's expiry is whole seconds: what the phone is told is what the hub enforces.
    expect(phone.login).toMatchObject({ renewable: true, expiresAt: Math.floor((clock + DEVICE_SESSION_TTL_MS) / 1000) * 1000 });
    expect(phone.refreshSecret).toMatch(new RegExp(`^${phone.tokenId}\\.[A-Za-z0-9_-]{43}$`));
    const lan = await pair(null, false);
    expect(lan.refreshSecret).toBeNull();
    expect(lan.login.renewable).toBeUndefined();
    expect(lan.login.expiresAt).toBe(Math.floor((clock + 12 * 60 * 60 * 1000) / 1000) * 1000);
  });

  it('renews with the current secret and rotates it; the old one within the grace is a second tab, after it a replay that revokes the device', async () => {
    const { devices, pair, resolver } = world();
    const phone = await pair(null);
    clock += 1000;
    const first = await devices.refresh(phone.refreshSecret!);
    expect(first).toMatchObject({ kind: 'renewed', tokenId: phone.tokenId, login: { renewable: true, namespace: 'alpha' } });
    if (first.kind !== 'renewed') return;
    expect(first.secret).not.toBe(phone.refreshSecret);
    expect(await resolver.resolve({ credential: first.login.session })).toMatchObject({ tokenId: phone.tokenId, renewable: true });

    // Another tab, at once, with the secret the first tab just replaced: a session, no new secret.
    clock += CONCURRENT_REFRESH_MS - 1;
    expect(await devices.refresh(phone.refreshSecret!)).toMatchObject({ kind: 'renewed', secret: null });
    // Past the grace: someone else holds it. The device is revoked and told.
    clock += 2;
    expect(await devices.refresh(phone.refreshSecret!)).toEqual({ kind: 'replayed', revoked: [phone.tokenId] });
    expect(revoked).toEqual([{ namespace: 'alpha', tokenIds: [phone.tokenId] }]);
    expect(await resolver.resolve({ credential: first.login.session })).toBeNull();
    expect(await devices.refresh(first.secret!)).toEqual({ kind: 'refused' });
  });

  it('refuses garbage, a forged secret for a real device, an access token\'s id, and a secret two rotations old (no replay: its holder is out anyway)', async () => {
    const { devices, pair } = world();
    const phone = await pair(null);
    const owner = await createAccessToken({ store, namespace: 'alpha', label: 'laptop' });
    expect(await devices.refresh('')).toEqual({ kind: 'refused' });
    expect(await devices.refresh('tok_zz.abc')).toEqual({ kind: 'refused' });
    expect(await devices.refresh(`${phone.tokenId}.${'A'.repeat(43)}`)).toEqual({ kind: 'refused' });
    expect(await devices.refresh(`${owner.info.id}.${'A'.repeat(43)}`)).toEqual({ kind: 'refused' });
    const one = await devices.refresh(phone.refreshSecret!);
    const two = one.kind === 'renewed' ? await devices.refresh(one.secret!) : null;
    expect(two?.kind).toBe('renewed');
    clock += CONCURRENT_REFRESH_MS + 1;
    expect(await devices.refresh(phone.refreshSecret!)).toEqual({ kind: 'refused' });
    expect(revoked).toEqual([]);
  });

  it('a device unused past the idle limit is signed out: no refresh, its session refused, revoked', async () => {
    const { devices, pair, resolver } = world();
    const phone = await pair(null);
    clock += 29 * DAY;
    const renewed = await devices.refresh(phone.refreshSecret!);
    expect(renewed.kind).toBe('renewed');
    if (renewed.kind !== 'renewed') return;
    // Used on day 29: it lives to day 59.
    clock += 29 * DAY;
    expect((await devices.refresh(renewed.secret!)).kind).toBe('renewed');
    clock += 31 * DAY;
    expect(await devices.refresh(phone.refreshSecret!)).toEqual({ kind: 'refused' });
    expect(revoked.map((r) => r.tokenIds)).toEqual([[phone.tokenId]]);
    expect((await store.getToken({ id: phone.tokenId }))?.revokedAt).toBe(clock);
    // A LAN device's live socket, unused past the limit, fails its next check and is revoked.
    const lan = await pair(null, false);
    const caller = { namespace: 'alpha', tokenId: lan.tokenId, label: '', via: 'web-session' as const, expiresAt: null };
    expect(await resolver.stillValid(caller, clock)).toBe(true);
    clock += 31 * DAY;
    expect(await resolver.stillValid(caller, clock)).toBe(false);
    expect((await store.getToken({ id: lan.tokenId }))?.revokedAt).toBe(clock);
  });

  it('a paired device revokes only itself; the namespace\'s owner (an access token) any device; nothing of another namespace', async () => {
    const { devices, pair } = world();
    const a = await pair(null);
    const b = await pair(null);
    const asB = { namespace: 'alpha', tokenId: b.tokenId };
    expect(await devices.revokeDevice({ caller: asB, id: a.tokenId })).toEqual({ kind: 'forbidden' });
    expect(await devices.revokeDevice({ caller: { ...asB, namespace: 'beta' }, id: a.tokenId })).toEqual({ kind: 'not_found' });
    const owner = await createAccessToken({ store, namespace: 'alpha', label: 'laptop' });
    expect(await devices.revokeDevice({ caller: asB, id: owner.info.id })).toEqual({ kind: 'not_found' });
    expect(await devices.list({ namespace: 'alpha', currentTokenId: b.tokenId })).toEqual([
      expect.objectContaining({ id: b.tokenId, current: true }),
      expect.objectContaining({ id: a.tokenId, current: false }),
    ]);
    expect(await devices.revokeDevice({ caller: asB, id: b.tokenId })).toEqual({ kind: 'revoked', ids: [b.tokenId] });
    expect(await devices.mayRevokeOthers({ tokenId: owner.info.id })).toBe(true);
    expect(await devices.mayRevokeOthers({ tokenId: a.tokenId })).toBe(false);
    expect(await devices.revokeDevice({ caller: { namespace: 'alpha', tokenId: owner.info.id }, id: a.tokenId })).toEqual({ kind: 'revoked', ids: [a.tokenId] });
    expect(await devices.list({ namespace: 'alpha', currentTokenId: b.tokenId })).toEqual([]);
  });

  it('signs out by its cookie, current or just replaced; revoking a device revokes what it paired', async () => {
    const { devices, pair } = world();
    const phone = await pair(null);
    const tablet = await pair(phone.tokenId);
    expect(await devices.signOutBySecret(`${phone.tokenId}.${'B'.repeat(43)}`)).toEqual([]);
    const ids = await devices.signOutBySecret(phone.refreshSecret!);
    expect([...ids].sort()).toEqual([phone.tokenId, tablet.tokenId].sort());
    expect(revoked).toHaveLength(1);
  });

  it('keeps a long-lived cookie only for https or loopback pages', () => {
    expect(renewableOrigin('https://tether.example.test')).toBe(true);
    expect(renewableOrigin('http://127.0.0.1:8787')).toBe(true);
    expect(renewableOrigin('http://localhost:5173')).toBe(true);
    expect(renewableOrigin('http://[::1]:8787')).toBe(true);
    expect(renewableOrigin('http://192.168.1.20:8787')).toBe(false);
    expect(renewableOrigin('http://tether.lan')).toBe(false);
    expect(renewableOrigin('null')).toBe(false);
    expect(renewableOrigin(undefined)).toBe(false);
  });
});
