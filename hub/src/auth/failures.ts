// failures.ts: failed authentication, counted per client address and per presented token prefix,
// for every way in: POST /api/auth/login, POST /api/auth/pair (a pairing code), a REST bearer and a
// socket handshake.
//
//   credential ─► verified? ─yes─► in, always (a blocked address never locks the owner's token out)
//                           └no──► counted for the address and the token's prefix ─► 401, or 429 past a limit
//
// Why this shape: tokens are 256 random bits, so no rate of guessing finds one; what a limit must not
// do is turn the owner away (on loopback, or behind a proxy without --trust-proxy, every client has
// one address). A valid credential is therefore checked before any limit, and the limit only turns
// further failures into 429 + Retry-After: a clear signal to scripts and people, and a log line.
// Only things shaped like a credential count (an access token, a pairing code, a JWT): garbage is
// not a guess.
// Invariant: memory is bounded (rate-limit.ts drops the oldest keys past its cap).
import { PAIR_CODE_PREFIX, TOKEN_PREFIX } from '@tether/shared';
import { createFailureLimiter } from './rate-limit.ts';

/** Failures per address per window before 429. */
export const AUTH_MAX_FAILURES_PER_ADDRESS = 10;
/** Failures per token or code prefix (`tth_` / `tpc_` + 8 characters), from any address. Higher than per address: a
 *  prefix is shared by chance only, and a proxy's clients may all mistype one token. */
export const AUTH_MAX_FAILURES_PER_PREFIX = 30;
export const AUTH_WINDOW_MS = 60_000;
const PREFIX_CHARS = TOKEN_PREFIX.length + 8;
const PREFIXED = [TOKEN_PREFIX, PAIR_CODE_PREFIX];
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export type AuthFailures = ReturnType<typeof createAuthFailures>;

export function createAuthFailures(options: { perAddress?: number; perPrefix?: number; windowMs?: number; onBlocked?: (address: string) => void } = {}) {
  const windowMs = options.windowMs ?? AUTH_WINDOW_MS;
  const addresses = createFailureLimiter({ maxFailures: options.perAddress ?? AUTH_MAX_FAILURES_PER_ADDRESS, windowMs });
  const prefixes = createFailureLimiter({ maxFailures: options.perPrefix ?? AUTH_MAX_FAILURES_PER_PREFIX, windowMs });
  return {
    /** A credential that did not verify. Returns the seconds to wait when its address or prefix is
     *  past the limit (answer 429), null otherwise (answer 401). */
    failed(failure: { address: string; credential: string }, now = Date.now()): number | null {
      const { credential } = failure;
      const token = PREFIXED.some((prefix) => credential.startsWith(prefix));
      if (!token && !JWT_SHAPE.test(credential)) return null;
      const prefix = token ? credential.slice(0, PREFIX_CHARS) : null;
      const wait = Math.max(addresses.blockedFor(failure.address, now) ?? 0, (prefix && prefixes.blockedFor(prefix, now)) || 0);
      addresses.recordFailure(failure.address, now);
      if (prefix) prefixes.recordFailure(prefix, now);
      if (wait === 0 && addresses.blockedFor(failure.address, now) !== null) options.onBlocked?.(failure.address);
      return wait > 0 ? wait : null;
    },
  };
}
