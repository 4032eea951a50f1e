// devices.ts: paired devices that stay signed in until revoked or idle (issue 38, "Pair once").
//
//   pair over https/loopback ─► device token + refresh secret (cookie, HttpOnly, path /api/auth/refresh)
//   POST /api/auth/refresh ─► the secret rotated ─► a new short web session (DEVICE_SESSION_TTL_MS)
//   the secret it replaced, presented again ─► a replay: the device is revoked (and what it paired)
//   DELETE /api/auth/refresh, or a device session's sign-out ─► that device revoked, at once
//
// A refresh secret is `<token id>.<256 random bits>`; only its SHA-256 is stored, with the one it
// replaced. Two tabs of one phone refreshing together present the same secret: the second, within
// CONCURRENT_REFRESH_MS of the rotation, gets a session but no new secret (its tab's cookie jar
// already holds the new one). Past that, the replaced secret is a replay. Older secrets than the one
// replaced are "unknown" (refused, not a replay: their holder is out either way).
// Invariants: a revoked or idle device never gets a session; a paired device may revoke only itself
// (the namespace's owner, signed in with an access token, any device); whatever is revoked is published (tokens.revoked) so sockets and push drop it at once.
import { randomBytes } from 'node:crypto';
import { sameDigest, sha256Hex } from './digest.ts';
import { isLoopbackHost, type DeviceInfo, type LoginResponse, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import type { WebSessionSigner } from './web-session.ts';

/** A renewable device's web session: short, since its cookie renews it; revocation is checked on
 *  every use anyway, this bounds what a copied session is worth. */
export const DEVICE_SESSION_TTL_MS = 60 * 60 * 1000;
/** A device unused this long is signed out (`tether hub --device-idle-days`). */
export const DEVICE_IDLE_DAYS = 30;
/** Two refreshes with one secret this close together are one phone's two tabs, not a replay. */
export const CONCURRENT_REFRESH_MS = 30_000;
const SECRET_BYTES = 32;
/** `<token id>.<secret>`: the id finds the row, the secret proves it. */
const REFRESH_PATTERN = /^(tok_[a-f0-9]{16})\.([A-Za-z0-9_-]{43})$/;

/** Whether a browser at this Origin may keep a long-lived refresh cookie: https, or this machine
 *  (loopback never crosses a network). A plain-http LAN page gets a 12 h session instead: its cookie
 *  would cross the Wi-Fi in the clear. No Origin (not a browser): no cookie either. */
export function renewableOrigin(origin: string | undefined): boolean {
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  } catch {
    return false;
  }
}

export function hashRefreshSecret(secret: string): string {
  return sha256Hex(secret);
}

export type RefreshResult =
  | { kind: 'renewed'; login: LoginResponse; tokenId: string; /** The next secret; null: keep the cookie as it is. */ secret: string | null }
  /** Unknown, malformed, revoked, idle: sign in again. */
  | { kind: 'refused' }
  /** The secret this device already replaced: someone else holds it. The device is revoked. */
  | { kind: 'replayed'; revoked: string[] };

export type Devices = ReturnType<typeof createDevices>;

export function createDevices(options: {
  store: Store;
  signer: WebSessionSigner;
  /** Told whenever tokens are revoked here (sockets, push and the other hubs follow). */
  revoked: (event: { namespace: Namespace; tokenIds: string[] }) => void;
  sessionTtlMs?: number;
  idleDays?: number;
  /** CONCURRENT_REFRESH_MS unless told (tests). */
  concurrentMs?: number;
  now?: () => number;
}) {
  const { store, signer } = options;
  const sessionTtlMs = options.sessionTtlMs ?? DEVICE_SESSION_TTL_MS;
  const idleMs = (options.idleDays ?? DEVICE_IDLE_DAYS) * 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  const concurrentMs = options.concurrentMs ?? CONCURRENT_REFRESH_MS;

  const revoke = async (namespace: Namespace, id: string): Promise<string[]> => {
    const ids = await store.revokeToken({ id, at: now() });
    if (ids.length > 0) options.revoked({ namespace, tokenIds: ids });
    return ids;
  };
  const idle = (record: { kind: string; createdAt: number; lastUsedAt: number | null }, at: number) =>
    record.kind === 'device' && (record.lastUsedAt ?? record.createdAt) + idleMs <= at;
  const session = async (tokenId: string, namespace: Namespace, at: number): Promise<LoginResponse> => {
    const signed = await signer.sign({ tokenId, namespace, now: at, ttlMs: sessionTtlMs, renewable: true });
    return { session: signed.session, namespace, expiresAt: signed.expiresAt, renewable: true };
  };

  const mintSecret = (tokenId: string): { secret: string; hash: string } => {
    const secret = `${tokenId}.${randomBytes(SECRET_BYTES).toString('base64url')}`;
    return { secret, hash: hashRefreshSecret(secret) };
  };

  /** The live device a presented refresh secret names, with the secret's hash (to compare with its
   *  current and previous one); null for a malformed secret or an unknown or revoked device. */
  const presentedDevice = async (presented: string) => {
    const match = REFRESH_PATTERN.exec(presented);
    if (!match) return null;
    const record = await store.getDeviceRefresh({ id: match[1]! });
    if (!record || record.kind !== 'device' || record.revokedAt !== null) return null;
    return { record, hash: hashRefreshSecret(presented) };
  };

  /** Whether the caller is the namespace's owner (an access token), not a paired device. */
  const mayRevokeOthers = async (caller: { tokenId: string }): Promise<boolean> => (await store.getToken({ id: caller.tokenId }))?.kind === 'access';

  return {
    sessionTtlMs,
    idleDays: options.idleDays ?? DEVICE_IDLE_DAYS,
    /** A new device's first refresh secret (its hash goes into the store with the token). */
    mintSecret,
    /** The renewable session a device gets when it pairs. */
    firstSession: (tokenId: string, namespace: Namespace) => session(tokenId, namespace, now()),
    /** Whether a device has gone unused past the idle limit (then it is revoked, and refused). */
    async checkIdle(record: { id: string; namespace: Namespace; kind: string; createdAt: number; lastUsedAt: number | null }): Promise<boolean> {
      if (!idle(record, now())) return false;
      await revoke(record.namespace, record.id);
      return true;
    },
    async refresh(presented: string): Promise<RefreshResult> {
      const found = await presentedDevice(presented);
      if (!found) return { kind: 'refused' };
      const { record, hash } = found;
      const id = record.id;
      const at = now();
      if (idle(record, at)) {
        await revoke(record.namespace, id);
        return { kind: 'refused' };
      }
      if (sameDigest(record.hash, hash)) {
        const next = mintSecret(id);
        if (await store.rotateDeviceRefresh({ id, from: hash, to: next.hash, at })) return { kind: 'renewed', login: await session(id, record.namespace, at), tokenId: id, secret: next.secret };
        // Another tab rotated it between the read and the write: that is the concurrent case below.
        const again = await store.getDeviceRefresh({ id });
        if (again && again.revokedAt === null && sameDigest(again.prevHash, hash)) return { kind: 'renewed', login: await session(id, record.namespace, at), tokenId: id, secret: null };
        return { kind: 'refused' };
      }
      if (sameDigest(record.prevHash, hash)) {
        if (record.refreshedAt !== null && at - record.refreshedAt <= concurrentMs) {
          await store.touchToken({ id, at });
          return { kind: 'renewed', login: await session(id, record.namespace, at), tokenId: id, secret: null };
        }
        return { kind: 'replayed', revoked: await revoke(record.namespace, id) };
      }
      return { kind: 'refused' };
    },
    /** Sign-out by the refresh cookie (works after the short session expired): the device is revoked. */
    async signOutBySecret(presented: string): Promise<string[]> {
      const found = await presentedDevice(presented);
      if (!found || (!sameDigest(found.record.hash, found.hash) && !sameDigest(found.record.prevHash, found.hash))) return [];
      return revoke(found.record.namespace, found.record.id);
    },
    /** A caller revokes a device of its namespace: a paired device only itself; the namespace's
     *  owner (an access token, or a browser signed in with one) any device, a lost phone included. */
    async revokeDevice(options: { caller: { namespace: Namespace; tokenId: string }; id: string }): Promise<{ kind: 'revoked'; ids: string[] } | { kind: 'forbidden' } | { kind: 'not_found' }> {
      const { caller, id } = options;
      const record = await store.getToken({ id });
      if (!record || record.namespace !== caller.namespace || record.kind !== 'device') return { kind: 'not_found' };
      if (record.id !== caller.tokenId && !(await mayRevokeOthers(caller))) return { kind: 'forbidden' };
      return { kind: 'revoked', ids: await revoke(caller.namespace, id) };
    },
    mayRevokeOthers,
    /** The namespace's live devices: the caller's own first (marked), then the most recently used. */
    async list(options: { namespace: Namespace; currentTokenId: string }): Promise<DeviceInfo[]> {
      const tokens = await store.listTokens({ namespace: options.namespace });
      const at = now();
      return tokens
        .filter((t) => t.kind === 'device' && t.revokedAt === null && !idle(t, at))
        .map((t) => ({ id: t.id, label: t.label, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt, current: t.id === options.currentTokenId }))
        .sort((a, b) => Number(b.current) - Number(a.current) || (b.lastUsedAt ?? b.createdAt) - (a.lastUsedAt ?? a.createdAt));
    },
  };
}
