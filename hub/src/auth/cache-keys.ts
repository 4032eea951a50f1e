// cache-keys.ts: the key a signed-in phone encrypts its chat cache with (web/src/lib/phone-cache).
// Derived, never stored: HMAC-SHA256 of the hub's signing secret over a label, the namespace and the
// login's token id. The hub hands it out only with an authenticated answer (GET /api/sessions), so
// a revoked or signed-out login (its token row refused by namespace.ts) never gets it again, and a
// phone that keeps it only in memory cannot read its own store once it no longer can ask.
// Invariant: only a web session's caller gets a key (a share link or a CLI's access token has no
// phone cache); the same login always gets the same key, another login another one.
import { createHmac } from 'node:crypto';
import type { Caller } from './namespace.ts';

/** Bumped if the derivation ever changes: an old phone's store then stops decrypting (and is dropped). */
const LABEL = 'tether web cache key v1';

export type CacheKeys = {
  /** The caller's key (32 bytes, base64url), or null when this caller has no phone cache. */
  keyFor(caller: Pick<Caller, 'namespace' | 'tokenId' | 'via'>): string | null;
};

export function createCacheKeys(options: { secret: Uint8Array }): CacheKeys {
  const { secret } = options;
  return {
    keyFor(caller) {
      if (caller.via !== 'web-session') return null;
      // NUL separators: no namespace/token pair can be spelled as another.
      return createHmac('sha256', secret).update(`${LABEL}\0${caller.namespace}\0${caller.tokenId}`).digest('base64url');
    },
  };
}
