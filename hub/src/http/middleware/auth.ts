// auth.ts: `Authorization: Bearer <web session JWT | access token>` → the caller's namespace in the
// typed context. Everything under /api except login goes through it; no credential → 401.
import type { MiddlewareHandler } from 'hono';
import type { CallerResolver } from '../../auth/namespace.ts';
import type { HubHttpEnv } from '../app.ts';
import { httpError } from '../errors.ts';

export function requireCaller(options: { resolver: CallerResolver }): MiddlewareHandler<HubHttpEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S{1,4096})$/i.exec(header);
    const caller = match ? await options.resolver.resolve({ credential: match[1]! }) : null;
    if (!caller) {
      return httpError(c, { code: 'unauthorized', error: 'missing, invalid, expired or revoked credential', headers: { 'WWW-Authenticate': 'Bearer' } });
    }
    c.set('caller', caller);
    await next();
  };
}
