// -session-chat.tsx: the lazily loaded half of the chat route (the "-" prefix marks a file that is
// not a route of its own). It reads the session the layout already has and renders the chat.
import { useCallback } from 'react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { ChatView } from '../features/chat/chat-view.tsx';
import { SessionEndNotice } from '../features/lifecycle/resume-controls.tsx';
import type { ShowInTerminal } from '../features/chat/show-in-terminal.ts';

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');

export function SessionChat() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  const navigate = useNavigate();
  // A tool card's "Show in terminal": the terminal tab, opened at the call's moment.
  const showInTerminal = useCallback<ShowInTerminal>(
    ({ moment, tool, hint }) =>
      void navigate({ to: '/sessions/$sessionId/terminal', params: { sessionId }, search: { run: moment.run, start: moment.start, end: moment.end, tool, hint } }),
    [navigate, sessionId],
  );
  // Keyed by id: a chat's state must never carry over to the next session opened in place.
  return session.data ? <ChatView key={session.data.id} session={session.data} showInTerminal={showInTerminal} endNotice={<SessionEndNotice session={session.data} />} /> : null;
}
