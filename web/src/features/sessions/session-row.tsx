// session-row.tsx: one session in the list: title, directory, status, launch kind, the pending
// badge (an approval or question waits), the bypass warning, when it was last active, whether it
// has news this device has not read and whether it is pinned. The whole row is one link; its menu
// of actions (session-actions.tsx) sits over the row's right end, outside the link.
import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { describeLaunchKind, formatDirectory, formatRelativeTime, sessionTitle } from '../../lib/format.ts';
import { Badge, StatusPill } from '../../lib/ui/badge.tsx';
import { IconBell, IconPin } from '../../lib/ui/icons.tsx';
import { BypassBadge } from './session-facts.tsx';
import { LimitBadge } from './limit-banner.tsx';

export function SessionRow({
  session,
  now,
  home,
  unread = false,
  actions,
}: {
  session: Session;
  now: number;
  home?: string | undefined;
  unread?: boolean;
  /** The row's menu (pin, archive), drawn over its right end. */
  actions?: ReactNode;
}) {
  const title = sessionTitle(session);
  const pinned = session.pinnedAt != null;
  const kind = describeLaunchKind(session.launchKind, session.agent);
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
        data-pinned={pinned ? 'yes' : undefined}
      >
        <div className="session-row-main">
          <div className="session-row-top">
            <span className="session-row-title">
              {unread ? <span className="unread-dot" aria-hidden="true" /> : null}
              {pinned ? <IconPin size={15} strokeWidth={2.4} className="pin-mark" /> : null}
              {title}
              {pinned ? <span className="sr-only"> (pinned)</span> : null}
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
            {session.limit ? <LimitBadge limit={session.limit} now={now} /> : null}
            {session.parentId ? <Badge title="A read-only review of another session's changes">Review</Badge> : null}
            {pending > 0 ? (
              <Badge tone="attention" label={`${pending} waiting for your answer`}>
                <IconBell size={13} strokeWidth={2.4} />
                {pending}
              </Badge>
            ) : null}
          </div>
        </div>
      </Link>
      {actions}
    </li>
  );
}
