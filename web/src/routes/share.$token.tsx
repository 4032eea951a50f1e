// share.$token.tsx: `/share/:token`, a read-only share link: one session's chat and terminal for
// someone without a login. The token is checked for shape here and by the hub for everything else.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as rootRoute } from './__root.tsx';

/** A share token is a signed JWT: base64url parts and dots. Checked by hand (no zod up front). */
const SHARE_TOKEN_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: 'share/$token',
  params: {
    parse: (raw: Record<string, string>) => {
      const token = raw.token ?? '';
      if (token.length > 4096 || !SHARE_TOKEN_RE.test(token)) throw new Error('not a share link');
      return { token };
    },
    stringify: (params) => ({ token: params.token }),
  },
  component: lazyRouteComponent(routeCode(() => import('./-share-view.tsx')), 'ShareView'),
  errorComponent: () => (
    <main className="not-found" role="alert">
      <h1>Not a share link</h1>
      <p>This address is not a tether share link. Ask for a new one.</p>
    </main>
  ),
});
