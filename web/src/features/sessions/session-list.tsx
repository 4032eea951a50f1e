// session-list.tsx: the live list of this namespace's sessions, grouped by machine, with the
// pane header (connection, new session, account) and a search. Live: the cache it reads is patched
// by `session:updated` facts (lib/queries.ts), so rows appear and change without a reload. A row
// with news since this device last read it is marked unread (seen.ts). Each row's menu pins or
// archives it (session-actions.tsx); archived sessions leave the groups for the Archived section
// at the end, closed until asked for. What an action did is announced, with Undo for an archive.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Machine, Session } from '@tether/shared';
import { AccountMenu } from '../../lib/ui/account-menu.tsx';
import { ConnectionIndicator } from '../../lib/ui/connection-indicator.tsx';
import { IconArchive, IconChevron, IconPlus, IconX } from '../../lib/ui/icons.tsx';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useNow } from '../../lib/ui/use-now.ts';
import { sessionTitle } from '../../lib/format.ts';
import { filterSessions, splitArchived } from './filter-sessions.ts';
import { groupSessions } from './group-sessions.ts';
import { baseline, isUnread, useSeen } from './seen.ts';
import { SessionRow } from './session-row.tsx';
import { SessionActions, type ArchiveQuestionSlot, type SessionActionDone } from './session-actions.tsx';
import { SessionsEmpty } from './sessions-empty.tsx';
import './session-list.css';

export type SessionListProps = {
  sessions: readonly Session[] | undefined;
  machines: readonly Machine[] | undefined;
  error: Error | null;
  onRetry: () => void;
  /** More account-menu items (the notifications switch, from pwa/). */
  menuExtra?: ReactNode;
  /** Archive's question about a session's live reviews (from reviews/). */
  archiveQuestion?: ArchiveQuestionSlot;
  /** What asks the person above the list (the rules tether proposes, from rules/). */
  asks?: ReactNode;
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

export function SessionList({ sessions, machines, error, onRetry, menuExtra, archiveQuestion, asks }: SessionListProps) {
  const now = useNow();
  const [query, setQuery] = useState('');
  const seen = useSeen();
  useEffect(() => {
    if (sessions) baseline(sessions);
  }, [sessions]);
  const [notice, setNotice] = useState<SessionActionDone | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const { groups, archived } = useMemo(() => {
    const { listed, archived } = splitArchived(filterSessions({ sessions: sessions ?? [], machines: machines ?? [], query }));
    return { groups: groupSessions({ sessions: listed, machines: machines ?? [] }), archived };
  }, [sessions, machines, query]);
  const anyOnline = (machines ?? []).some((m) => m.online);
  const homes = new Map((machines ?? []).map((m) => [m.id, m.home]));
  // An archived row leaves the list with its menu button: focus goes to Undo rather than the page.
  useEffect(() => {
    if (notice?.undo) undoRef.current?.focus();
  }, [notice]);

  const row = (session: Session, home: string | undefined) => (
    <SessionRow
      key={session.id}
      session={session}
      now={now}
      home={home}
      unread={isUnread(seen, session)}
      actions={<SessionActions session={session} title={sessionTitle(session)} onDone={setNotice} archiveQuestion={archiveQuestion} />}
    />
  );

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
  } else {
    body = (
      <>
        {groups.length === 0 ? (
          <p className="list-message" role="status">
            {query.trim() ? `No session matches “${query.trim()}”.` : 'Every session is archived.'}
          </p>
        ) : null}
        {groups.map((group) => (
      <section key={group.key} className="session-group" aria-labelledby={`group-${group.key}`}>
        <h2 className="session-group-title" id={`group-${group.key}`}>
          {group.online !== null ? (
            <span className={`machine-dot ${group.online ? 'is-online' : ''}`} aria-hidden="true" />
          ) : null}
          {group.machine ? (
            <Link to="/machines/$machineId" params={{ machineId: group.machine.id }} className="session-group-link" title={`${group.machine.name}: its daemon, and conversations found there`}>
              {group.title}
            </Link>
          ) : (
            <span>{group.title}</span>
          )}
          {group.online === false ? <span className="session-group-note">offline</span> : null}
          <span className="session-group-count">{group.sessions.length}</span>
        </h2>
        <ul className="session-rows">{group.sessions.map((session) => row(session, group.machine?.home))}</ul>
      </section>
        ))}
        <ArchivedGroup archived={archived} row={(session) => row(session, session.machineId ? homes.get(session.machineId) : undefined)} />
      </>
    );
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
      <div className="pane-body">
        {/* Always there, so that a screen reader hears what an action did when it appears. */}
        <div className="list-notice-region" role="status">
          {notice ? (
            <p className="list-notice">
              <span>{notice.text}</span>
              {notice.undo ? (
                <button
                  ref={undoRef}
                  type="button"
                  className="button list-notice-undo"
                  onClick={() => {
                    const undo = notice.undo;
                    setNotice(null);
                    void undo?.().catch((failure: unknown) => setNotice({ text: `Could not undo: ${failure instanceof Error ? failure.message : String(failure)}` }));
                  }}
                >
                  Undo
                </button>
              ) : null}
              <button type="button" className="icon-button list-notice-close" aria-label="Dismiss" onClick={() => setNotice(null)}>
                <IconX size={16} />
              </button>
            </p>
          ) : null}
        </div>
        {asks}
        {body}
        {sessions ? <MachineLinks machines={machines ?? []} /> : null}
      </div>
    </div>
  );
}

/** Every machine, each a link to its page: one with no session has no group to tap. */
function MachineLinks({ machines }: { machines: readonly Machine[] }) {
  if (machines.length === 0) return null;
  return (
    <nav className="machine-links" aria-label="Machines">
      <h2 className="session-group-title">Machines</h2>
      <ul>
        {machines.map((machine) => (
          <li key={machine.id}>
            <Link to="/machines/$machineId" params={{ machineId: machine.id }} className="button machine-link">
              <span className={`machine-dot ${machine.online ? 'is-online' : ''}`} aria-hidden="true" />
              <span>{machine.name}</span>
              <span className="session-group-note">{machine.online ? 'online' : 'offline'}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The archived sessions, folded away under one toggle. */
function ArchivedGroup({ archived, row }: { archived: Session[]; row: (session: Session) => ReactNode }) {
  const [showArchived, setShowArchived] = useState(false);
  if (archived.length === 0) return null;
  return (
    <section className="session-group archived-group" aria-labelledby="group-archived">
      <h2 className="session-group-title" id="group-archived">
        <button
          type="button"
          className="archived-toggle"
          aria-expanded={showArchived}
          aria-controls="archived-rows"
          onClick={() => setShowArchived((v) => !v)}
        >
          <IconArchive size={16} />
          <span>Archived</span>
          <span className="session-group-count">{archived.length}</span>
          <IconChevron size={16} className={`archived-chevron${showArchived ? ' is-open' : ''}`} />
        </button>
      </h2>
      {showArchived ? (
        <ul className="session-rows" id="archived-rows">
          {archived.map(row)}
        </ul>
      ) : null}
    </section>
  );
}
