// session-row.tsx: one session in the list: title, directory, status, launch kind, the pending
// badge (an approval or question waits), the bypass warning, when it was last active and whether it
// has news this device has not read. The whole row is one link.
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { describeLaunchKind, formatDirectory, formatRelativeTime, sessionTitle } from '../../lib/format.ts';
import { Badge, StatusPill } from '../../lib/ui/badge.tsx';
import { IconBell, IconChevron } from '../../lib/ui/icons.tsx';
import { BypassBadge } from './session-facts.tsx';

export function SessionRow({ session, now, home, unread = false }: { session: Session; now: number; home?: string | undefined; unread?: boolean }) {
  const title = sessionTitle(session);
  const kind = describeLaunchKind(session.launchKind);
  const pending = session.pendingCount;
  return (
    <li className="session-row-item">
      <Link
        to="/sessions/$sessionId"
        params={{ sessionId: session.id }}
        className="session-row"
        activeProps={{ className: 'session-row is-active', 'aria-current': 'page' }}
        data-session-id={session.id}
        data-status={session.status}
        data-unread={unread ? 'yes' : undefined}
      >
        <div className="session-row-main">
          <div className="session-row-top">
            <span className="session-row-title">
              {unread ? <span className="unread-dot" aria-hidden="true" /> : null}
              {title}
              {unread ? <span className="sr-only"> (new activity)</span> : null}
            </span>
            <time className="session-row-time" dateTime={new Date(session.updatedAt).toISOString()}>
              {formatRelativeTime(session.updatedAt, now)}
            </time>
          </div>
          <div className="session-row-dir" title={session.cwd}>
            {formatDirectory(session.cwd, { home })}
          </div>
          <div className="session-row-meta">
            <StatusPill status={session.status} />
            {session.bypass ? <BypassBadge /> : null}
            <Badge title={kind.title}>{kind.label}</Badge>
            {pending > 0 ? (
              <Badge tone="attention" label={`${pending} waiting for your answer`}>
                <IconBell size={13} strokeWidth={2.4} />
                {pending}
              </Badge>
            ) : null}
          </div>
        </div>
        <IconChevron size={18} className="session-row-chevron" />
      </Link>
    </li>
  );
}
