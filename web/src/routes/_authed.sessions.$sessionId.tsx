// _authed.sessions.$sessionId.tsx: `/sessions/:id`, the session layout: its header once for both
// tabs (chat, terminal) below it. The id is validated like any input before anything is fetched.
import { Outlet, createRoute, Link } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { useSession } from '../lib/queries.ts';
import { Spinner } from '../lib/ui/badge.tsx';
import { SessionHeader } from '../features/sessions/session-header.tsx';
import { Route as authedRoute } from './_authed.tsx';

/** Same shape as shared SessionIdSchema (zod/mini keeps the first-load bundle small). */
const SessionParamsSchema = z.object({
  sessionId: z.string().check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)),
});

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'sessions/$sessionId',
  params: {
    parse: (raw) => SessionParamsSchema.parse(raw),
    stringify: (params) => ({ sessionId: params.sessionId }),
  },
  component: SessionLayout,
  errorComponent: () => <Missing text="That isn't a session address." />,
});

function Missing({ text }: { text: string }) {
  return (
    <div className="detail-placeholder" role="alert">
      <p className="detail-placeholder-title">Session not found</p>
      <p>{text}</p>
      <Link to="/" className="button">
        Back to sessions
      </Link>
    </div>
  );
}

function SessionLayout() {
  const { sessionId } = Route.useParams();
  const session = useSession(sessionId);
  if (session.data) {
    return (
      <div className="session-screen">
        <SessionHeader session={session.data} />
        <Outlet />
      </div>
    );
  }
  if (session.error) return <Missing text={session.error.message} />;
  return (
    <div className="detail-placeholder">
      <Spinner size={22} label="Loading session" />
    </div>
  );
}
