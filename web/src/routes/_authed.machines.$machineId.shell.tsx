// _authed.machines.$machineId.shell.tsx: `/machines/:id/shell?cwd=…`, this tab's login shell on a
// machine (web shells, shared/src/shell.ts). xterm loads on demand with the page. `desk` as the id
// stands for a session started at the desk without a daemon: the page says there is no shell.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { z } from 'zod';
import { Route as authedRoute } from './_authed.tsx';

const SearchSchema = z.object({ cwd: z.string().min(1).max(4096).optional().catch(undefined) });

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'machines/$machineId/shell',
  validateSearch: (search: Record<string, unknown>) => SearchSchema.parse(search),
  component: lazyRouteComponent(() => import('./-machine-shell.tsx'), 'MachineShell'),
});
