// session-header.tsx: the top bar of one session: back to the list, title and directory, status,
// launch kind, and a badge when approvals wait. Sticky, below the phone's status bar.
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { describeLaunchKind, formatDirectory, sessionTitle } from '../../lib/format.ts';
import { Badge, StatusPill } from '../../lib/ui/badge.tsx';
import { IconBack, IconBell } from '../../lib/ui/icons.tsx';

export function SessionHeader({ session }: { session: Session }) {
  const kind = describeLaunchKind(session.launchKind);
  return (
    <header className="session-header">
      <Link to="/" className="icon-button back-button" aria-label="Back to sessions">
        <IconBack size={24} />
      </Link>
      <div className="session-header-text">
        <h1 className="session-header-title">{sessionTitle(session)}</h1>
        <div className="session-header-dir" title={session.cwd}>
          {formatDirectory(session.cwd, { max: 40 })}
        </div>
      </div>
      <div className="session-header-meta">
        <StatusPill status={session.status} />
        <span className="session-header-kind">
          <Badge title={kind.title}>{kind.label}</Badge>
        </span>
        {session.pendingCount > 0 ? (
          <Badge tone="attention" label={`${session.pendingCount} waiting for your answer`}>
            <IconBell size={13} strokeWidth={2.4} />
            {session.pendingCount}
          </Badge>
        ) : null}
      </div>
    </header>
  );
}
