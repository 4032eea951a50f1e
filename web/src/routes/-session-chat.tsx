// -session-chat.tsx: the lazily loaded half of the chat route (the "-" prefix marks a file that is
// not a route of its own). It reads the session the layout already has and renders the chat.
import { getRouteApi } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { ChatView } from '../features/chat/chat-view.tsx';

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');

export function SessionChat() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  // Keyed by id: a chat's state must never carry over to the next session opened in place.
  return session.data ? <ChatView key={session.data.id} session={session.data} /> : null;
}
