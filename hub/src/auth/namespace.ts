// namespace.ts: credential → caller. Whatever a client presents (an access token, or a web session
// bought with one) resolves here to the namespace every query and room of that caller is scoped by.
// Invariants: the token row is checked on every resolution, so a revoked token (and every web session
// bought with it) is refused on the next request or connection; so is a device idle past its limit
// (devices.ts). A renewable device's socket lives as long as its device, not its short session: the
// session bounds what a copied JWT is worth, and a socket is no credential to copy.
import { TOKEN_PREFIX, type Namespace } from '@tether/shared';
import type { Store } from '../store/store.ts';
import { verifyAccessToken } from './tokens.ts';
import type { WebSessionSigner } from './web-session.ts';

/** What the resolver needs of devices.ts: whether a device went idle (then it is revoked). */
export type IdleCheck = (record: { id: string; namespace: Namespace; kind: string; createdAt: number; lastUsedAt: number | null }) => Promise<boolean>;

/** Writing last_used_at on every request would turn reads into writes; once a minute is plenty. */
const TOUCH_INTERVAL_MS = 60_000;

export type Caller = {
  namespace: Namespace;
  tokenId: string;
  /** The token's label: who answered an approval, in the audit trail. */
  label: string;
  via: 'token' | 'web-session';
  /** When a web session expires (ms); null for access tokens. */
  expiresAt: number | null;
  /** A paired device's renewable session: its live sockets outlast the session, not the device. */
  renewable?: boolean;
};

export type CallerResolver = {
  /** `accept` limits which credential kinds are allowed (the /cli namespace takes tokens only). */
  resolve(options: { credential: string; accept?: ReadonlyArray<Caller['via']> }): Promise<Caller | null>;
  /** Whether a caller resolved earlier may still act (token not revoked, session not expired). */
  stillValid(caller: Caller, now?: number): Promise<boolean>;
};

export function createCallerResolver(options: { store: Store; signer: WebSessionSigner; idle?: IdleCheck }): CallerResolver {
  const { store, signer } = options;
  const idle: IdleCheck = options.idle ?? (async () => false);
  const lastTouch = new Map<string, number>();
  const touch = (id: string) => {
    const now = Date.now();
    if ((lastTouch.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    lastTouch.set(id, now);
    // Best effort: a failed write only leaves last_used_at older; the request itself goes on.
    store.touchToken({ id, at: now }).catch(() => {});
  };
  return {
    async resolve({ credential, accept = ['token', 'web-session'] }) {
      if (credential.startsWith(TOKEN_PREFIX)) {
        if (!accept.includes('token')) return null;
        const record = await verifyAccessToken({ store, token: credential });
        if (!record) return null;
        touch(record.id);
        return { namespace: record.namespace, tokenId: record.id, label: record.label, via: 'token', expiresAt: null };
      }
      if (!accept.includes('web-session')) return null;
      const claims = await signer.verify(credential);
      if (!claims) return null;
      const record = await store.getToken({ id: claims.tokenId });
      if (!record || record.revokedAt !== null || record.namespace !== claims.namespace) return null;
      if (await idle(record)) return null;
      touch(record.id);
      return { namespace: record.namespace, tokenId: record.id, label: record.label, via: 'web-session', expiresAt: claims.expiresAt, ...(claims.renewable ? { renewable: true } : {}) };
    },
    async stillValid(caller, now = Date.now()) {
      if (caller.expiresAt !== null && caller.expiresAt <= now && !caller.renewable) return false;
      const record = await store.getToken({ id: caller.tokenId });
      const valid = record !== null && record.revokedAt === null && !(await idle(record));
      // A phone that keeps its socket open is in use, REST calls or not.
      if (valid) touch(record.id);
      return valid;
    },
  };
}
