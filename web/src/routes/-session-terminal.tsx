// -session-terminal.tsx: the lazily loaded half of the terminal route. Headless sessions have no
// terminal; say so instead of an empty black box.
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { TerminalView } from '../features/terminal/terminal-view.tsx';

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');

export function SessionTerminal() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  if (!session.data) return null;
  if (session.data.launchKind !== 'pty') {
    return (
      <div className="detail-placeholder">
        <p className="detail-placeholder-title">No terminal</p>
        <p>This session runs headless (chat only). Start a PTY session to get a live terminal.</p>
        <Link to="/sessions/$sessionId" params={{ sessionId }} className="button">
          Back to chat
        </Link>
      </div>
    );
  }
  return <TerminalView key={session.data.id} session={session.data} />;
}
