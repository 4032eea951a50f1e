// _authed.machines.$machineId.shell.tsx: `/machines/:id/shell?cwd=…`, this tab's login shell on a
// machine (web shells, shared/src/shell.ts). xterm loads on demand with the page. `desk` as the id
// stands for a session started at the desk without a daemon: the page says there is no shell.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as authedRoute } from './_authed.tsx';

/** Longest directory accepted from the URL (Linux PATH_MAX, as shared's MAX_PATH_CHARS). */
const MAX_CWD_CHARS = 4096;

/** Checked by hand, not with zod: every route file is in the first-load bundle and zod would add
 *  ~25 KB gzip to it (see login.tsx). Anything but a sane string is dropped, not an error. */
function parseShellSearch(search: Record<string, unknown>): { cwd?: string } {
  const cwd = search.cwd;
  return typeof cwd === 'string' && cwd.length > 0 && cwd.length <= MAX_CWD_CHARS ? { cwd } : {};
}

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'machines/$machineId/shell',
  validateSearch: parseShellSearch,
  component: lazyRouteComponent(routeCode(() => import('./-machine-shell.tsx')), 'MachineShell'),
});
