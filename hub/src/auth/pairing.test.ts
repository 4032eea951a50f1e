// pairing.test.ts: pairing codes on a real SQLite store: their shape, only their hash stored, one use
// within 10 minutes, a device token per redemption (labelled, revocable alone, its plaintext nowhere).
import { join } from 'node:path';
import { Database } from 'bun:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { PAIR_CODE_TTL_MS, PairCodeSchema } from '@tether/shared';
import { createSqliteStore } from '../store/sqlite/sqlite-store.ts';
import { openTempStore, removeTempStore } from '../testing/temp-store.ts';
import type { Store } from '../store/store.ts';
import { createCallerResolver } from './namespace.ts';
import { createDevices } from './devices.ts';
import { createPairCode, createPairing, describeUserAgent, hashPairCode, MAX_LIVE_PAIR_CODES, PAIR_CODE_KEEP_MS } from './pairing.ts';
import { revokeAccessToken } from './tokens.ts';
import { createWebSessionSigner } from './web-session.ts';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

let dir: string;
let store: Store;
const signer = createWebSessionSigner({ secret: new Uint8Array(32).fill(3) });
beforeEach(() => void ({ dir, store } = openTempStore('tether-pairing-')));
afterEach(() => removeTempStore({ dir, store }));

it('makes tpc_ codes of 192 random bits, keeps only their hash, valid for 10 minutes', async () => {
  const { code, expiresAt } = await createPairCode({ store, namespace: 'alpha', createdBy: 'tether hub', now: 1000 });
  expect(code).toMatch(/^tpc_[A-Za-z0-9_-]{32}$/);
  expect(PairCodeSchema.safeParse(code).success).toBe(true);
  expect(expiresAt).toBe(1000 + PAIR_CODE_TTL_MS);
  const other = await createPairCode({ store, namespace: 'alpha', createdBy: 'tether hub', now: 1000 });
  expect(other.code).not.toBe(code);
  await store.close();
  const db = new Database(join(dir, 'hub.sqlite'), { readonly: true });
  const dump = JSON.stringify(db.query('SELECT * FROM pair_codes').all());
  db.close();
  expect(dump).toContain(hashPairCode(code));
  expect(dump).not.toContain(code.slice(4));
  store = createSqliteStore({ path: join(dir, 'hub.sqlite') });
});

it('redeems once into a web session of a new device token in the code\'s namespace, revocable alone', async () => {
  const pairing = createPairing({ store, signer, devices: createDevices({ store, signer, revoked: () => {} }) });
  const made = await pairing.create({ namespace: 'alpha', createdBy: 'laptop', creatorTokenId: null, now: Date.now() });
  if (made.kind !== 'created') throw new Error('no code');
  const first = await pairing.redeem({ code: made.code, userAgent: IPHONE, renewable: false });
  expect(first).toMatchObject({ kind: 'paired', login: { namespace: 'alpha' } });
  if (first.kind !== 'paired') return;
  expect(await pairing.redeem({ code: made.code, userAgent: IPHONE, renewable: false })).toEqual({ kind: 'spent' });
  const tokens = await store.listTokens({ namespace: 'alpha' });
  expect(tokens).toHaveLength(1);
  expect(tokens[0]).toMatchObject({ id: first.tokenId, label: expect.stringMatching(/^paired device \d{4}-\d{2}-\d{2} iPhone Safari$/) });
  const resolver = createCallerResolver({ store, signer });
  expect(await resolver.resolve({ credential: first.login.session })).toMatchObject({ namespace: 'alpha', tokenId: first.tokenId, via: 'web-session' });
  // Revoking the device's token ends its session, and only its.
  const second = await pairing.create({ namespace: 'alpha', createdBy: 'laptop', creatorTokenId: null });
  if (second.kind !== 'created') throw new Error('no code');
  const other = await pairing.redeem({ code: second.code, userAgent: undefined, renewable: false });
  if (other.kind !== 'paired') throw new Error('not paired');
  await revokeAccessToken({ store, id: first.tokenId });
  expect(await resolver.resolve({ credential: first.login.session })).toBeNull();
  expect(await resolver.resolve({ credential: other.login.session })).toMatchObject({ namespace: 'alpha' });
});

it('refuses an expired code (spent), an unknown or forged one (unknown), and purges old rows a day past expiry', async () => {
  const pairing = createPairing({ store, signer, devices: createDevices({ store, signer, revoked: () => {} }) });
  const t0 = 1_000_000;
  const made = await createPairCode({ store, namespace: 'alpha', createdBy: 'x', now: t0 });
  expect(await pairing.redeem({ code: made.code, userAgent: IPHONE, renewable: false, now: t0 + PAIR_CODE_TTL_MS })).toEqual({ kind: 'spent' });
  expect(await pairing.redeem({ code: `tpc_${'A'.repeat(32)}`, userAgent: IPHONE, renewable: false, now: t0 })).toEqual({ kind: 'unknown' });
  expect(await pairing.redeem({ code: `tth_${'A'.repeat(43)}`, userAgent: IPHONE, renewable: false, now: t0 })).toEqual({ kind: 'unknown' });
  // A day past its expiry the row is gone: the code reads as unknown.
  expect(await pairing.redeem({ code: made.code, userAgent: IPHONE, renewable: false, now: t0 + PAIR_CODE_TTL_MS + PAIR_CODE_KEEP_MS + 1 })).toEqual({ kind: 'unknown' });
  expect(await store.listTokens()).toEqual([]);
});

it('caps the unused codes a namespace holds, not another namespace\'s', async () => {
  const pairing = createPairing({ store, signer, devices: createDevices({ store, signer, revoked: () => {} }) });
  for (let i = 0; i < MAX_LIVE_PAIR_CODES; i++) expect((await pairing.create({ namespace: 'alpha', createdBy: 'x', creatorTokenId: null, now: 5000 })).kind).toBe('created');
  expect(await pairing.create({ namespace: 'alpha', createdBy: 'x', creatorTokenId: null, now: 5000 })).toEqual({ kind: 'full' });
  expect((await pairing.create({ namespace: 'beta', createdBy: 'x', creatorTokenId: null, now: 5000 })).kind).toBe('created');
  expect((await pairing.create({ namespace: 'alpha', createdBy: 'x', creatorTokenId: null, now: 5000 + PAIR_CODE_TTL_MS })).kind).toBe('created');
});

it('names a device by known words only', () => {
  expect(describeUserAgent(IPHONE)).toBe('iPhone Safari');
  expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36')).toBe('Android Chrome');
  expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Mac Firefox');
  expect(describeUserAgent('\u001b[31mevil\u0007 $(rm -rf ~)')).toBe('unknown browser');
  expect(describeUserAgent(undefined)).toBe('unknown browser');
});
