// -session-terminal.tsx: the lazily loaded half of the terminal route. Headless sessions have no
// terminal; say so instead of an empty black box.
import { useMemo } from 'react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSession } from '../lib/queries.ts';
import { TerminalView, type TerminalJump } from '../features/terminal/terminal-view.tsx';

const sessionRoute = getRouteApi('/_authed/sessions/$sessionId');
const terminalRoute = getRouteApi('/_authed/sessions/$sessionId/terminal');

export function SessionTerminal() {
  const { sessionId } = sessionRoute.useParams();
  const session = useSession(sessionId);
  const { run, start, end, tool, hint, find } = terminalRoute.useSearch();
  // One object per moment: the view jumps again only when the moment changes.
  const jump = useMemo<TerminalJump | null>(
    () =>
      find !== undefined
        ? { text: find }
        : run !== undefined && start !== undefined
          ? { moment: end === undefined ? { run, start } : { run, start, end }, tool: tool ?? '', hint: hint ?? '' }
          : null,
    [run, start, end, tool, hint, find],
  );
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
  return <TerminalView key={session.data.id} session={session.data} jump={jump} />;
}
