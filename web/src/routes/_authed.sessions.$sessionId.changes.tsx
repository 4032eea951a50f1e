// _authed.sessions.$sessionId.changes.tsx: `/sessions/:id/changes`, the session's working tree
// against HEAD (diffs, syntax colour). The view and its grammars load on demand, never on first load.
// `?file=src/a.ts`: scroll to that file's diff (a tool card's "Show diff"); `?against=base`: the whole
// branch since a worktree session's branch started, not only what is not committed. Checked by hand, not with
// zod (zod stays off the first load; see the session layout).
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';
import { workspacePath } from './-workspace-search.ts';

export type ChangesSearch = { file?: string; against?: 'base' };

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: 'changes',
  validateSearch: (raw: Record<string, unknown>): ChangesSearch => {
    const file = workspacePath(raw.file);
    return { ...(file ? { file } : {}), ...(raw.against === 'base' ? { against: 'base' as const } : {}) };
  },
  component: lazyRouteComponent(routeCode(() => import('./-session-workspace.tsx')), 'SessionChanges'),
});
