// session-list.tsx: the live list of this namespace's sessions, grouped by machine, with the
// pane header (connection, new session, account) and a search. Live: the cache it reads is patched
// by `session:updated` facts (lib/queries.ts), so rows appear and change without a reload. A row
// with news since this device last read it is marked unread (seen.ts).
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Machine, Session } from '@tether/shared';
import { AccountMenu } from '../../lib/ui/account-menu.tsx';
import { ConnectionIndicator } from '../../lib/ui/connection-indicator.tsx';
import { IconPlus } from '../../lib/ui/icons.tsx';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useNow } from '../../lib/ui/use-now.ts';
import { filterSessions } from './filter-sessions.ts';
import { groupSessions } from './group-sessions.ts';
import { baseline, isUnread, useSeen } from './seen.ts';
import { SessionRow } from './session-row.tsx';
import { SessionsEmpty } from './sessions-empty.tsx';

export type SessionListProps = {
  sessions: readonly Session[] | undefined;
  machines: readonly Machine[] | undefined;
  error: Error | null;
  onRetry: () => void;
  /** More account-menu items (the notifications switch, from pwa/). */
  menuExtra?: ReactNode;
};

function NewSessionButton({ enabled }: { enabled: boolean }) {
  if (!enabled) {
    return (
      <button
        type="button"
        className="icon-button new-session-button"
        disabled
        aria-label="New session"
        title="No machine is online: run `tether daemon` on a computer to start sessions from here"
      >
        <IconPlus size={22} />
      </button>
    );
  }
  return (
    <Link to="/new" className="icon-button new-session-button" aria-label="New session" title="New session">
      <IconPlus size={22} />
    </Link>
  );
}

export function SessionList({ sessions, machines, error, onRetry, menuExtra }: SessionListProps) {
  const now = useNow();
  const [query, setQuery] = useState('');
  const seen = useSeen();
  useEffect(() => {
    if (sessions) baseline(sessions);
  }, [sessions]);
  const groups = useMemo(
    () => groupSessions({ sessions: filterSessions({ sessions: sessions ?? [], machines: machines ?? [], query }), machines: machines ?? [] }),
    [sessions, machines, query],
  );
  const anyOnline = (machines ?? []).some((m) => m.online);

  let body;
  if (error && !sessions) {
    body = (
      <div className="list-message" role="alert">
        <p>Couldn't load sessions: {error.message}</p>
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  } else if (!sessions) {
    body = (
      <div className="list-message">
        <Spinner size={22} label="Loading sessions" />
      </div>
    );
  } else if (sessions.length === 0) {
    // Wide screens show the full guide in the detail pane; the list keeps one quiet line.
    body = (
      <>
        <div className="list-empty-full">
          <SessionsEmpty canStartRemotely={anyOnline} />
        </div>
        <p className="list-empty-compact">No sessions yet.</p>
      </>
    );
  } else if (groups.length === 0) {
    body = (
      <p className="list-message" role="status">
        No session matches “{query.trim()}”.
      </p>
    );
  } else {
    body = groups.map((group) => (
      <section key={group.key} className="session-group" aria-labelledby={`group-${group.key}`}>
        <h2 className="session-group-title" id={`group-${group.key}`}>
          {group.online !== null ? (
            <span className={`machine-dot ${group.online ? 'is-online' : ''}`} aria-hidden="true" />
          ) : null}
          <span>{group.title}</span>
          {group.online === false ? <span className="session-group-note">offline</span> : null}
          <span className="session-group-count">{group.sessions.length}</span>
        </h2>
        <ul className="session-rows">
          {group.sessions.map((session) => (
            <SessionRow key={session.id} session={session} now={now} home={group.machine?.home} unread={isUnread(seen, session)} />
          ))}
        </ul>
      </section>
    ));
  }

  return (
    <div className="pane">
      <header className="pane-header">
        <div className="pane-header-row">
          <h1 className="pane-title">Sessions</h1>
          <div className="pane-actions">
            <ConnectionIndicator />
            <NewSessionButton enabled={anyOnline} />
            <AccountMenu extra={menuExtra} />
          </div>
        </div>
        {sessions && sessions.length > 0 ? (
          <input
            type="search"
            className="field-input list-search"
            placeholder="Search title, folder, machine"
            aria-label="Search sessions"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
          />
        ) : null}
      </header>
      <div className="pane-body">{body}</div>
    </div>
  );
}
