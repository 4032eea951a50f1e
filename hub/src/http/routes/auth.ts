// auth.ts (routes): `POST /api/auth/login { token }` → a 12 h web session. Failed logins count per
// client IP (a wrong token, not a malformed body); past the limit every login from that IP gets 429 with Retry-After until the window ends.
import { Hono } from 'hono';
import { LoginBodySchema, type LoginResponse } from '@tether/shared';
import type { Store } from '../../store/store.ts';
import { verifyAccessToken } from '../../auth/tokens.ts';
import type { WebSessionSigner } from '../../auth/web-session.ts';
import type { HubHttpEnv } from '../app.ts';
import { parseJsonBody } from '../body.ts';
import { httpError } from '../errors.ts';
import type { FailureLimiter } from '../middleware/rate-limit.ts';

export function createAuthRoutes(options: { store: Store; signer: WebSessionSigner; limiter: FailureLimiter }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/login', async (c) => {
    const ip = c.env?.ip ?? 'unknown';
    const wait = options.limiter.blockedFor(ip);
    if (wait !== null) {
      return httpError(c, { code: 'rate_limited', error: `too many failed logins; retry in ${wait}s`, headers: { 'Retry-After': String(wait) } });
    }
    // A malformed body cannot be a token guess, so only wrong tokens count towards the limit.
    const body = await parseJsonBody(c, LoginBodySchema);
    if (!body.ok) return body.response;
    const record = await verifyAccessToken({ store: options.store, token: body.data.token });
    if (!record) {
      options.limiter.recordFailure(ip);
      return httpError(c, { code: 'unauthorized', error: 'unknown or revoked token' });
    }
    const { session, expiresAt } = await options.signer.sign({ tokenId: record.id, namespace: record.namespace });
    const response: LoginResponse = { session, namespace: record.namespace, expiresAt };
    return c.json(response);
  });
  return app;
}
