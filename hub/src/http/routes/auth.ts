// auth.ts (routes): `POST /api/auth/login { token }` and `POST /api/auth/pair { code }` → a 12 h web
// session. A wrong token or code counts against its address and its prefix (auth/failures.ts; a
// malformed body does not); past the limit they get 429 with Retry-After. The right token always logs
// in. A code that exists but is used or expired answers 410, any other 401: telling them apart helps
// the person holding the QR and tells a guesser nothing (192-bit codes are never guessed into a row).
import { Hono } from 'hono';
import { LoginBodySchema, PairBodySchema } from '@tether/shared';
import type { Login } from '../../auth/login.ts';
import type { Pairing } from '../../auth/pairing.ts';
import type { HubHttpEnv } from '../env.ts';
import { parseJsonBody } from '../body.ts';
import { httpError, rateLimited } from '../errors.ts';
import type { AuthFailures } from '../../auth/failures.ts';

export function createAuthRoutes(options: { login: Login; pairing: Pairing; failures: AuthFailures }) {
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
  app.post('/pair', async (c) => {
    // Only a body shaped like a code (tpc_…) is a guess worth counting; anything else is a 400.
    const body = await parseJsonBody(c, PairBodySchema);
    if (!body.ok) return body.response;
    const result = await options.pairing.redeem({ code: body.data.code, userAgent: c.req.header('user-agent') });
    if (result.kind === 'paired') return c.json(result.login);
    const wait = options.failures.failed({ address: c.env?.ip ?? 'unknown', credential: body.data.code });
    if (wait !== null) return rateLimited(c, wait);
    if (result.kind === 'spent') return httpError(c, { code: 'gone', error: 'this pairing code has expired or was already used; run tether pair for a new one' });
    return httpError(c, { code: 'unauthorized', error: 'unknown pairing code; run tether pair for a new one' });
  });
  return app;
}
