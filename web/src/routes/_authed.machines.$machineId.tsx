// _authed.machines.$machineId.tsx: `/machines/:id`, one machine's page (features/machines): its
// daemon, and "Found on this machine". Loads on demand with the page.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'machines/$machineId',
  component: lazyRouteComponent(routeCode(() => import('./-machine-page.tsx')), 'MachineRoute'),
});
