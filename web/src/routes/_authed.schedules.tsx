// _authed.schedules.tsx: `/schedules`, the namespace's scheduled prompts and their editor. The page
// loads on demand: most visits never open it.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as authedRoute } from './_authed.tsx';

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'schedules',
  component: lazyRouteComponent(routeCode(() => import('../features/schedules/schedules-page.tsx')), 'SchedulesPage'),
});
