// auth.ts (routes): `POST /api/auth/login { token }` → a 12 h web session. A wrong token counts
// against its address and its prefix (auth/failures.ts; a malformed body does not); past the limit
// wrong tokens get 429 with Retry-After. The right token always logs in.
import { Hono } from 'hono';
import { LoginBodySchema, type LoginResponse } from '@tether/shared';
import type { Store } from '../../store/store.ts';
import { verifyAccessToken } from '../../auth/tokens.ts';
import type { WebSessionSigner } from '../../auth/web-session.ts';
import type { HubHttpEnv } from '../app.ts';
import { parseJsonBody } from '../body.ts';
import { httpError, rateLimited } from '../errors.ts';
import type { AuthFailures } from '../../auth/failures.ts';

export function createAuthRoutes(options: { store: Store; signer: WebSessionSigner; failures: AuthFailures }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/login', async (c) => {
    // A malformed body cannot be a token guess, so only wrong tokens count towards the limit.
    const body = await parseJsonBody(c, LoginBodySchema);
    if (!body.ok) return body.response;
    const record = await verifyAccessToken({ store: options.store, token: body.data.token });
    if (!record) {
      const wait = options.failures.failed({ address: c.env?.ip ?? 'unknown', credential: body.data.token });
      if (wait !== null) return rateLimited(c, wait);
      return httpError(c, { code: 'unauthorized', error: 'unknown or revoked token' });
    }
    const { session, expiresAt } = await options.signer.sign({ tokenId: record.id, namespace: record.namespace });
    const response: LoginResponse = { session, namespace: record.namespace, expiresAt };
    return c.json(response);
  });
  return app;
}
