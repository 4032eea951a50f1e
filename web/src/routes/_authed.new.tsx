// _authed.new.tsx: `/new`, start a session on an online machine. The form loads on demand: most
// visits never open it.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'new',
  component: lazyRouteComponent(routeCode(() => import('./-new-session.tsx')), 'NewSession'),
});
