// pairing.ts: one-time pairing codes, what a QR carries instead of an access token.
//
//   tether hub (start) / tether pair ─► createPairCode ─► pair_codes row {sha-256, namespace, +10 min}
//   phone opens <url>/#pair=<code> ─► POST /api/auth/pair ─► redeem(): the code is spent and a device
//   token of its namespace is minted in one transaction ─► a web session signed for that token
//
// Invariants: the code is never stored (its SHA-256 is; 192 random bits need no slow hash); a code
// works once and for 10 minutes, two concurrent redeems mint one token (the store's conditional
// UPDATE); the device token's plaintext is never made known to anyone: the phone gets only the
// 12 h web session, and `tether token revoke <id>` ends that device alone. Counting failed redeems
// is the caller's (auth/failures.ts), as for logins.
import { randomBytes } from 'node:crypto';
import { sha256Hex } from './digest.ts';
import { PAIR_CODE_PREFIX, PAIR_CODE_TTL_MS, type LoginResponse, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { generateAccessToken, hashAccessToken, newTokenId } from './tokens.ts';
import type { WebSessionSigner } from './web-session.ts';
import type { Devices } from './devices.ts';

/** 24 bytes = 192 bits (32 base64url characters): unguessable in 10 minutes at any rate, and short
 *  enough to keep the QR small and to type from a screen if it must be. */
const CODE_BYTES = 24;
/** A spent or expired code is kept this long after its expiry, so that scanning yesterday's QR says
 *  "expired" rather than "unknown"; then it is purged (each create and redeem purges). */
export const PAIR_CODE_KEEP_MS = 24 * 60 * 60 * 1000;
/** Unused codes a namespace may hold at once through the API: plenty for a person, a wall for a
 *  script that would fill the table. */
export const MAX_LIVE_PAIR_CODES = 20;

export function generatePairCode(): string {
  return PAIR_CODE_PREFIX + randomBytes(CODE_BYTES).toString('base64url');
}

export function hashPairCode(code: string): string {
  return sha256Hex(code);
}

/** Makes and stores a code for `namespace`; the plaintext is returned once, here. */
export async function createPairCode(options: {
  store: Store;
  namespace: Namespace;
  createdBy: string;
  /** The caller's token (its code dies with it); null on the hub's own machine. */
  creatorTokenId?: string | null;
  now?: number;
}): Promise<{ code: string; expiresAt: number }> {
  const now = options.now ?? Date.now();
  await options.store.purgePairCodes({ before: now - PAIR_CODE_KEEP_MS });
  const code = generatePairCode();
  const expiresAt = now + PAIR_CODE_TTL_MS;
  await options.store.insertPairCode({
    code: { hash: hashPairCode(code), namespace: options.namespace, createdBy: options.createdBy, createdAt: now, expiresAt, usedAt: null, tokenId: null, creatorTokenId: options.creatorTokenId ?? null },
  });
  return { code, expiresAt };
}

/** "iPhone Safari", "Android Chrome", "Mac Firefox": only known words, so a crafted User-Agent can
 *  put nothing of its own into `tether token list` (a terminal) or the audit trail. */
export function describeUserAgent(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const device = [
    [/iPhone/, 'iPhone'],
    [/iPad/, 'iPad'],
    [/Android/, 'Android'],
    [/CrOS/, 'ChromeOS'],
    [/Macintosh|Mac OS X/, 'Mac'],
    [/Windows/, 'Windows'],
    [/Linux/, 'Linux'],
  ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] as string | undefined;
  const browser = [
    [/Edg(A|iOS)?\//, 'Edge'],
    [/Firefox\/|FxiOS\//, 'Firefox'],
    [/Chrome\/|CriOS\//, 'Chrome'],
    [/Safari\//, 'Safari'],
  ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] as string | undefined;
  return [device, browser].filter(Boolean).join(' ') || 'unknown browser';
}

/** The device token's label: what `tether token list` shows for a paired phone. */
export function pairedDeviceLabel(options: { userAgent: string | undefined; now: number }): string {
  return `paired device ${new Date(options.now).toISOString().slice(0, 10)} ${describeUserAgent(options.userAgent)}`;
}

export type PairRedeemResult =
  | { kind: 'paired'; login: LoginResponse; tokenId: string; /** Over https or loopback: the refresh cookie's value. */ refreshSecret: string | null }
  /** Used already, or past its 10 minutes. */
  | { kind: 'spent' }
  /** Never made here, purged, or forged. */
  | { kind: 'unknown' };

export type Pairing = {
  /** A code for the caller's namespace, unless it already holds MAX_LIVE_PAIR_CODES unused ones. */
  create(options: { namespace: Namespace; createdBy: string; creatorTokenId: string | null; now?: number }): Promise<{ kind: 'created'; code: string; expiresAt: number } | { kind: 'full' }>;
  /** `renewable`: the phone reached the hub over https or loopback, where a long-lived cookie is
   *  safe; over plain http on a LAN it gets today's 12 h session and pairs again after it. */
  redeem(options: { code: string; userAgent: string | undefined; renewable: boolean; now?: number }): Promise<PairRedeemResult>;
};

export function createPairing(options: { store: Store; signer: WebSessionSigner; devices: Devices }): Pairing {
  const { store, signer, devices } = options;
  return {
    async create({ namespace, createdBy, creatorTokenId, now = Date.now() }) {
      if ((await store.countLivePairCodes({ namespace, at: now })) >= MAX_LIVE_PAIR_CODES) return { kind: 'full' };
      return { kind: 'created', ...(await createPairCode({ store, namespace, createdBy, creatorTokenId, now })) };
    },
    async redeem({ code, userAgent, renewable, now = Date.now() }) {
      if (!code.startsWith(PAIR_CODE_PREFIX) || code.length > 200) return { kind: 'unknown' };
      await store.purgePairCodes({ before: now - PAIR_CODE_KEEP_MS });
      // A token whose plaintext is dropped at once: it exists so that the web session has a row to
      // die with (revocation) and the device shows in `tether token list`.
      const token = { id: newTokenId(), hash: hashAccessToken(generateAccessToken()), label: pairedDeviceLabel({ userAgent, now }), createdAt: now, lastUsedAt: null, revokedAt: null, kind: 'device' as const };
      const refresh = renewable ? devices.mintSecret(token.id) : null;
      const result = await store.redeemPairCode({ hash: hashPairCode(code), at: now, token, refreshHash: refresh?.hash ?? null });
      if (result.kind !== 'redeemed') return result;
      const { id, namespace } = result.token;
      if (refresh) return { kind: 'paired', login: await devices.firstSession(id, namespace), tokenId: id, refreshSecret: refresh.secret };
      const { session, expiresAt } = await signer.sign({ tokenId: id, namespace, now });
      return { kind: 'paired', login: { session, namespace, expiresAt }, tokenId: id, refreshSecret: null };
    },
  };
}
