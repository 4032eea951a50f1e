// auth.ts (routes): `POST /api/auth/login { token }` → a 12 h web session. A wrong token counts
// against its address and its prefix (auth/failures.ts; a malformed body does not); past the limit
// wrong tokens get 429 with Retry-After. The right token always logs in.
import { Hono } from 'hono';
import { LoginBodySchema } from '@tether/shared';
import type { Login } from '../../auth/login.ts';
import type { HubHttpEnv } from '../env.ts';
import { parseJsonBody } from '../body.ts';
import { httpError, rateLimited } from '../errors.ts';
import type { AuthFailures } from '../../auth/failures.ts';

export function createAuthRoutes(options: { login: Login; failures: AuthFailures }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/login', async (c) => {
    // A malformed body cannot be a token guess, so only wrong tokens count towards the limit.
    const body = await parseJsonBody(c, LoginBodySchema);
    if (!body.ok) return body.response;
    const response = await options.login(body.data.token);
    if (!response) {
      const wait = options.failures.failed({ address: c.env?.ip ?? 'unknown', credential: body.data.token });
      if (wait !== null) return rateLimited(c, wait);
      return httpError(c, { code: 'unauthorized', error: 'unknown or revoked token' });
    }
    return c.json(response);
  });
  return app;
}
