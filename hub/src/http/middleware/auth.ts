// auth.ts: `Authorization: Bearer <web session JWT | access token>` → the caller's namespace in the
// typed context. Everything under /api except login goes through it; no credential → 401, a wrong
// one counts like a failed login (auth/failures.ts) and past the limit gets 429.
import type { MiddlewareHandler } from 'hono';
import { bearerOf } from '../../auth/digest.ts';
import type { CallerResolver } from '../../auth/namespace.ts';
import type { AuthFailures } from '../../auth/failures.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError, rateLimited } from '../errors.ts';

export function requireCaller(options: { resolver: CallerResolver; failures: AuthFailures }): MiddlewareHandler<HubHttpEnv> {
  return async (c, next) => {
    const credential = bearerOf(c.req.header('authorization'));
    const caller = credential ? await options.resolver.resolve({ credential }) : null;
    if (!caller) {
      const wait = credential ? options.failures.failed({ address: c.env?.ip ?? 'unknown', credential }) : null;
      if (wait !== null) return rateLimited(c, wait);
      return httpError(c, { code: 'unauthorized', error: 'missing, invalid, expired or revoked credential', headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    c.set('caller', caller);
    await next();
  };
}
