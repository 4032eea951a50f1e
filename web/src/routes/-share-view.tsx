// -share-view.tsx: the lazily loaded share page. It switches this tab's socket to the link, loads
// the session over `GET /api/share/:token`, and shows its chat (read-only) or, for a PTY session,
// its live terminal (read-only, loaded on demand).
import { lazy, Suspense, useEffect, useState } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { Session } from '@tether/shared';
import { hubApi } from '../lib/hub.ts';
import { queryKeys, useConnectionState } from '../lib/queries.ts';
import { setShareCredential } from '../lib/socket.ts';
import { describeLaunchKind, formatDirectory, formatDuration, sessionTitle } from '../lib/format.ts';
import { Badge, Spinner, StatusPill } from '../lib/ui/badge.tsx';
import { IconChat, IconTerminal, TetherMark } from '../lib/ui/icons.tsx';
import { ChatView } from '../features/chat/chat-view.tsx';
import '../features/sessions/session-screen.css';
import '../features/sessions/share.css';

const TerminalView = lazy(() => import('../features/terminal/terminal-view.tsx').then((m) => ({ default: m.TerminalView })));
const shareRoute = getRouteApi('/share/$token');

export function ShareView() {
  const { token } = shareRoute.useParams();
  const [view, setView] = useState<'chat' | 'terminal'>('chat');
  const connection = useConnectionState();

  // For as long as this page is open, the tab's one socket speaks with the link.
  useEffect(() => {
    setShareCredential(token);
    return () => setShareCredential(null);
  }, [token]);

  const shared = useQuery({
    queryKey: queryKeys.share(token),
    queryFn: () => hubApi.getSharedSession(token),
    staleTime: Infinity,
    retry: false,
  });
  // The watch keeps queryKeys.session fresh (status, model); start it from what the link returned.
  const seeded = shared.data?.session;
  const live = useQuery<Session>({
    queryKey: queryKeys.session(seeded?.id ?? 'none'),
    queryFn: () => Promise.reject(new Error('read-only: kept fresh by the watch')),
    enabled: false,
    ...(seeded ? { initialData: seeded } : {}),
  });

  if (shared.error) {
    return (
      <main className="not-found" role="alert">
        <h1>Link not available</h1>
        <p>This share link has expired or was revoked. Ask whoever sent it for a new one.</p>
      </main>
    );
  }
  const session = live.data ?? seeded;
  if (!session || !shared.data) {
    return (
      <div className="detail-placeholder">
        <Spinner size={22} label="Loading shared session" />
      </div>
    );
  }
  const kind = describeLaunchKind(session.launchKind, session.agent);
  const expiresIn = shared.data.expiresAt - Date.now();
  return (
    <div className="session-screen share-screen">
      <header className="session-header">
        <span className="share-mark" aria-hidden="true">
          <TetherMark size={28} />
        </span>
        <div className="session-header-text">
          <h1 className="session-header-title">{sessionTitle(session)}</h1>
          <div className="session-header-meta">
            <StatusPill status={session.status} />
            <Badge title={kind.title}>{kind.label}</Badge>
            <Badge tone="accent" title={`Shared read-only; the link expires in ${formatDuration(Math.max(0, expiresIn))}`}>
              Read-only
            </Badge>
            <span className="session-header-dir" title={session.cwd}>
              {formatDirectory(session.cwd, { max: 40 })}
            </span>
          </div>
        </div>
        {session.launchKind === 'pty' ? (
          <button
            type="button"
            className="icon-button view-toggle"
            aria-label={view === 'chat' ? 'Terminal' : 'Chat'}
            title={view === 'chat' ? 'Terminal' : 'Chat'}
            onClick={() => setView(view === 'chat' ? 'terminal' : 'chat')}
          >
            {view === 'chat' ? <IconTerminal size={22} /> : <IconChat size={22} />}
          </button>
        ) : null}
      </header>
      {connection.kind === 'refused' ? (
        <div className="banner banner-danger" role="alert">
          Live updates stopped: {connection.reason}.
        </div>
      ) : null}
      {view === 'terminal' && session.launchKind === 'pty' ? (
        <Suspense
          fallback={
            <div className="detail-placeholder">
              <Spinner size={22} label="Loading terminal" />
            </div>
          }
        >
          <TerminalView key={session.id} session={session} readOnly />
        </Suspense>
      ) : (
        <ChatView key={session.id} session={session} readOnly />
      )}
    </div>
  );
}
