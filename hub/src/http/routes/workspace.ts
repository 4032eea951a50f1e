// workspace.ts (routes): a session's working directory as its runner sees it, read-only:
//   GET /api/sessions/:id/changes?cursor=N   the diff against HEAD (and untracked files), a page of files;
//                      &against=base          against where the session's worktree branch started
//   GET /api/sessions/:id/files?path=dir     one directory's entries
//   GET /api/sessions/:id/file?path=a/b.ts   one file (capped; a binary one is named, not sent)
// Invariant: the caller's namespace only (another's session is 404 like a missing one); paths are
// checked here (shared WorkspacePathSchema: no '..', nothing absolute, no `.git`, no name over 255
// bytes) and again by the runner. Too many questions waiting on runners: 429 with the reason.
import { Hono, type Context } from 'hono';
import { describeZodError, SessionIdSchema, WorkspaceChangesQuerySchema, WorkspacePathQuerySchema, type WorkspaceQuery } from '@tether/shared';
import type { Workspace } from '../../workspace/workspace.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createWorkspaceRoutes(options: { workspace: Workspace }) {
  const app = new Hono<HubHttpEnv>();

  const answer = async (c: Context<HubHttpEnv>, query: (sessionId: string) => { query: WorkspaceQuery; against?: 'head' | 'base' } | string) => {
    const id = SessionIdSchema.safeParse(c.req.param('id'));
    if (!id.success) return httpError(c, { code: 'bad_request', error: describeZodError(id.error) });
    const built = query(id.data);
    if (typeof built === 'string') return httpError(c, { code: 'bad_request', error: built });
    const ack = await options.workspace.query(c.get('caller').namespace, built.query, { against: built.against ?? 'head' });
    // Too many questions waiting on runners: the first is answered within WORKSPACE_READ_TIMEOUT_MS.
    if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error, ...(ack.code === 'rate_limited' ? { headers: { 'Retry-After': '2' } } : {}) });
    const { ok: _ok, ...body } = ack;
    // What a working tree holds is private and changes under the viewer: never cached.
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  };

  app.get('/:id/changes', (c) =>
    answer(c, (sessionId) => {
      const q = WorkspaceChangesQuerySchema.safeParse(c.req.query());
      return q.success ? { query: { kind: 'changes', sessionId, cursor: q.data.cursor }, against: q.data.against } : describeZodError(q.error);
    }),
  );
  for (const [route, kind] of [['/:id/files', 'list'], ['/:id/file', 'read']] as const) {
    app.get(route, (c) =>
      answer(c, (sessionId) => {
        const q = WorkspacePathQuerySchema.safeParse(c.req.query());
        return q.success ? { query: { kind, sessionId, path: q.data.path } } : `path: ${describeZodError(q.error)}`;
      }),
    );
  }
  return app;
}
