// _authed.sessions.$sessionId.tsx: `/sessions/:id`, the session layout: its header and the approval
// sheet once for both tabs (chat, terminal). The id is validated like any input before anything is fetched.
import { useEffect, useState } from 'react';
import { Outlet, createRoute, Link } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import type { Session } from '@tether/shared';
import { queryKeys, sessionQuery, sessionsQuery, usePendingRequests, useSession } from '../lib/queries.ts';
import { Spinner } from '../lib/ui/badge.tsx';
import { SessionHeader } from '../features/sessions/session-header.tsx';
import { FindButton } from '../features/find/find-button.tsx';
import { markSeen } from '../features/sessions/seen.ts';
import { preloadCachedChat } from '../features/chat/cached-open.ts';
import { screenOpening } from '../lib/first-screen.ts';
import { lazyPart } from '../lib/ui/lazy-part.tsx';
import { Route as authedRoute } from './_authed.tsx';
import { AgentNameContext } from '../lib/agent-name.ts';
import { agentDisplayName } from '@tether/shared/wire';

/** Same rule as shared SessionIdSchema. Checked by hand, not with zod: any zod in the first-load
 *  bundle pulls in the zod core that the lazily loaded approvals (shared schemas) need, +14 KB gzip. */
const SESSION_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseSessionParams(raw: Record<string, string>): { sessionId: string } {
  const sessionId = raw.sessionId ?? '';
  if (!SESSION_ID_RE.test(sessionId)) throw new Error('not a session id');
  return { sessionId };
}

// Approvals load on first need: most visits have nothing waiting.
// End / Resume load with the session page's other halves, not with the app's first load.
const loadLifecycleButton = () => import('../features/lifecycle/lifecycle-button.tsx');
const loadStartReviewButton = () => import('../features/reviews/start-review.tsx');
const LifecycleButton = lazyPart(() => loadLifecycleButton().then((m) => m.LifecycleButton));
const EndReviewsQuestion = lazyPart(() => import('../features/reviews/end-question.tsx').then((m) => m.EndReviewsQuestion));
const StartReviewButton = lazyPart(() => loadStartReviewButton().then((m) => m.StartReviewButton));

/** The code a session's chat screen draws with, loaded (and run) ahead of the tap that opens one:
 *  main.tsx calls it once the first screen is painted (lib/first-screen.ts). On the tap, the chunks' fetch from the
 *  worker's cache, parse and evaluation took ~100 ms of a slowed CPU before the chat's render. */
export async function preloadSessionScreen(chatRoute: Promise<void> | undefined): Promise<void> {
  await Promise.all([chatRoute, loadLifecycleButton(), loadStartReviewButton(), import('./-session-chat.tsx').then((m) => m.preloadVoiceControls())]);
}
const ApprovalSheet = lazyPart(() => import('../features/approvals/approval-sheet.tsx').then((m) => m.ApprovalSheet));

/** A touch or hover of the session's row (intent preload) or the navigation itself. Its phone cache
 *  starts reading now, so the chat's first render can draw it (features/chat/cached-open.ts). A load
 *  of the URL also asks for the list (the cache's key rides on it) and the session at once, before
 *  the route's chunks have loaded and rendered; a tap from the list has both already. */
function preloadSession(o: { sessionId: string; client: QueryClient }): void {
  screenOpening();
  const listed = o.client.getQueryData<Session[]>(queryKeys.sessions());
  if (!listed) void o.client.ensureQueryData(sessionsQuery).catch(() => {});
  if (!listed?.some((s) => s.id === o.sessionId)) void o.client.ensureQueryData(sessionQuery(o.sessionId)).catch(() => {});
  preloadCachedChat(o.sessionId);
}

export const Route = createRoute({
  getParentRoute: () => authedRoute,
  path: 'sessions/$sessionId',
  params: {
    parse: parseSessionParams,
    stringify: (params) => ({ sessionId: params.sessionId }),
  },
  loader: ({ params, context }) => preloadSession({ sessionId: params.sessionId, client: context.queryClient }),
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
  const pending = usePendingRequests(sessionId);
  // Once shown, the sheet stays mounted so it can say "answered on another device".
  const [approvalsSeen, setApprovalsSeen] = useState(false);
  useEffect(() => {
    if (pending.length > 0) setApprovalsSeen(true);
  }, [pending.length]);
  // Open is read: the list's unread mark goes, and stays gone for what arrives while it is open.
  const lastSeq = session.data?.lastSeq;
  useEffect(() => {
    if (lastSeq !== undefined) markSeen(sessionId, lastSeq);
  }, [sessionId, lastSeq]);

  if (session.data) {
    return (
      <AgentNameContext.Provider value={agentDisplayName(session.data.agent, session.data.capabilities)}>
      <div className="session-screen" data-pending={pending.length > 0 ? 'yes' : 'no'}>
        <SessionHeader
          session={session.data}
          lifecycle={<LifecycleButton session={session.data} reviewsQuestion={(question) => <EndReviewsQuestion {...question} />} />}
          find={<FindButton session={session.data} />}
          review={<StartReviewButton session={session.data} compact />}
        />
        <Outlet />
        {approvalsSeen ? <ApprovalSheet key={sessionId} sessionId={sessionId} pending={pending} relays={session.data.capabilities?.relays ?? null} /> : null}
      </div>
      </AgentNameContext.Provider>
    );
  }
  if (session.error) return <Missing text={session.error.message} />;
  return (
    <div className="detail-placeholder">
      <Spinner size={22} label="Loading session" />
    </div>
  );
}
