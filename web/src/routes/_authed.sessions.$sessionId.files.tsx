// _authed.sessions.$sessionId.files.tsx: `/sessions/:id/files`, the session's directory, read-only:
// `?dir=src` lists a folder (the top without it), `?file=src/a.ts` opens a file (`&line=12`: scrolled
// to that line and lit up, as Find opens it). Loaded on demand.
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { routeCode } from '../lib/route-code.ts';
import { Route as sessionRoute } from './_authed.sessions.$sessionId.tsx';
import { workspacePath } from './-workspace-search.ts';

export type FilesSearch = { dir?: string; file?: string; line?: number };

const isLine = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 10_000_000;

export const Route = createRoute({
  getParentRoute: () => sessionRoute,
  path: 'files',
  validateSearch: (raw: Record<string, unknown>): FilesSearch => {
    const file = workspacePath(raw.file);
    if (file) return isLine(raw.line) ? { file, line: raw.line } : { file };
    const dir = workspacePath(raw.dir);
    return dir ? { dir } : {};
  },
  component: lazyRouteComponent(routeCode(() => import('./-session-workspace.tsx')), 'SessionFiles'),
});
