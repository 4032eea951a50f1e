// _authed.sessions.$sessionId.files.tsx: `/sessions/:id/files`, the session's directory, read-only:
// `?dir=src` lists a folder (the top without it), `?file=src/a.ts` opens a file. Loaded on demand.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';
import { workspacePath } from './-workspace-search.ts';

export type FilesSearch = { dir?: string; file?: string };

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: 'files',
  validateSearch: (raw: Record<string, unknown>): FilesSearch => {
    const file = workspacePath(raw.file);
    if (file) return { file };
    const dir = workspacePath(raw.dir);
    return dir ? { dir } : {};
  },
  component: lazyRouteComponent(() => import('./-session-workspace.tsx'), 'SessionFiles'),
});
