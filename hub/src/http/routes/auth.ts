// auth.ts (routes): `POST /api/auth/login { token }` and `POST /api/auth/pair { code }` → a web
// session; `POST /api/auth/refresh` renews a paired device's, `DELETE /api/auth/refresh` signs it out.
// A wrong token, code or refresh secret counts against its address and its prefix
// (auth/failures.ts; a malformed body does not); past the limit they get 429 with Retry-After. The
// right token always logs in. A code that exists but is used or expired answers 410, any other 401:
// telling them apart helps the person holding the QR and tells a guesser nothing (192-bit codes are
// never guessed into a row).
//
// The refresh secret travels only in a cookie the page's script cannot read (HttpOnly), sent only to
// the refresh route (Path), only by this site's own pages (SameSite=Strict), only over https or to
// loopback (Secure; a plain-http LAN pairing gets no cookie at all: devices.renewableOrigin).
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { LoginBodySchema, PairBodySchema } from '@tether/shared';
import { bearerOf } from '../../auth/digest.ts';
import type { Login } from '../../auth/login.ts';
import type { Pairing } from '../../auth/pairing.ts';
import { renewableOrigin, type Devices } from '../../auth/devices.ts';
import type { CallerResolver } from '../../auth/namespace.ts';
import type { HubHttpEnv } from '../env.ts';
import { parseJsonBody } from '../body.ts';
import { httpError, rateLimited } from '../errors.ts';
import type { AuthFailures } from '../../auth/failures.ts';

export const REFRESH_COOKIE = 'tether_refresh';
const REFRESH_PATH = '/api/auth/refresh';

function keepRefreshSecret(c: Context<HubHttpEnv>, options: { secret: string; maxAgeSeconds: number }): void {
  setCookie(c, REFRESH_COOKIE, options.secret, { path: REFRESH_PATH, httpOnly: true, secure: true, sameSite: 'Strict', maxAge: options.maxAgeSeconds });
}

function forgetRefreshSecret(c: Context<HubHttpEnv>): void {
  deleteCookie(c, REFRESH_COOKIE, { path: REFRESH_PATH, httpOnly: true, secure: true, sameSite: 'Strict' });
}

export function createAuthRoutes(options: { login: Login; pairing: Pairing; devices: Devices; resolver: CallerResolver; failures: AuthFailures; idleDays: number }) {
  const app = new Hono<HubHttpEnv>();
  const maxAgeSeconds = options.idleDays * 24 * 60 * 60;
  const failed = (c: Context<HubHttpEnv>, credential: string) => options.failures.failed({ address: c.env?.ip ?? 'unknown', credential });

  app.post('/login', async (c) => {
    // A malformed body cannot be a token guess, so only wrong tokens count towards the limit.
    const body = await parseJsonBody(c, LoginBodySchema);
    if (!body.ok) return body.response;
    const response = await options.login(body.data.token);
    if (!response) {
      const wait = failed(c, body.data.token);
      if (wait !== null) return rateLimited(c, wait);
      return httpError(c, { code: 'unauthorized', error: 'unknown or revoked token' });
    }
    return c.json(response);
  });
  app.post('/pair', async (c) => {
    // Only a body shaped like a code (tpc_…) is a guess worth counting; anything else is a 400.
    const body = await parseJsonBody(c, PairBodySchema);
    if (!body.ok) return body.response;
    const renewable = renewableOrigin(c.req.header('origin'));
    const result = await options.pairing.redeem({ code: body.data.code, userAgent: c.req.header('user-agent'), renewable });
    if (result.kind === 'paired') {
      if (result.refreshSecret) keepRefreshSecret(c, { secret: result.refreshSecret, maxAgeSeconds });
      return c.json(result.login);
    }
    const wait = failed(c, body.data.code);
    if (wait !== null) return rateLimited(c, wait);
    if (result.kind === 'spent') return httpError(c, { code: 'gone', error: 'this pairing code has expired or was already used; run tether pair for a new one' });
    return httpError(c, { code: 'unauthorized', error: 'unknown pairing code; run tether pair for a new one' });
  });
  app.post('/refresh', async (c) => {
    const secret = getCookie(c, REFRESH_COOKIE);
    if (!secret) return httpError(c, { code: 'unauthorized', error: 'this browser is not a paired device; pair it again' });
    const result = await options.devices.refresh(secret);
    if (result.kind === 'renewed') {
      if (result.secret) keepRefreshSecret(c, { secret: result.secret, maxAgeSeconds });
      return c.json(result.login);
    }
    forgetRefreshSecret(c);
    const wait = failed(c, secret);
    if (wait !== null) return rateLimited(c, wait);
    if (result.kind === 'replayed') return httpError(c, { code: 'unauthorized', error: 'this device was signed out: its sign-in was used from somewhere else; pair it again' });
    return httpError(c, { code: 'unauthorized', error: 'this device is signed out, revoked or unused for too long; pair it again' });
  });
  // Sign-out: the device of the cookie, and of the session presented (a LAN pairing has no cookie).
  app.delete('/refresh', async (c) => {
    const secret = getCookie(c, REFRESH_COOKIE);
    if (secret) await options.devices.signOutBySecret(secret);
    const bearer = bearerOf(c.req.header('authorization'));
    const caller = bearer ? await options.resolver.resolve({ credential: bearer, accept: ['web-session'] }) : null;
    if (caller) await options.devices.revokeDevice({ caller, id: caller.tokenId });
    forgetRefreshSecret(c);
    return c.json({ ok: true as const });
  });
  return app;
}
