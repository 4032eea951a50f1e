// session-header.tsx: the top bar of one session: back to the list, the title, then its facts (status,
// bypass warning, launch kind, mode, model, tokens used, who is in control, its machine's daemon online or not,
// directory and the folders added to it); tools (approval history,
// share, shell, changes and files) and actions (chat ⇄ terminal, End / Resume). Waiting approvals show in the approval
// sheet below, not here. The model chip opens the model picker. Sticky, below the phone's status bar.
// A phone gets two rows, under 100 px: back, title and actions; then the facts as one line that
// scrolls sideways, and the tools. Wider screens keep one row.
import { useContext, type ReactNode } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import type { Session } from '@tether/shared';
import { describeLaunchKind, formatDirectory, sessionTitle } from '../../lib/format.ts';
import { agentDisplayName, canSwitch } from '@tether/shared/wire';
import { Badge, StatusPill } from '../../lib/ui/badge.tsx';
import { IconChat, IconDiff, IconTerminal } from '../../lib/ui/icons.tsx';
import { BackHeader } from '../../lib/ui/back-header.tsx';
import { ModelPicker } from './model-picker.tsx';
import { ModePicker } from './mode-picker.tsx';
import { ActivityButton, ShareButton } from './share-button.tsx';
import { ShellButton } from './shell-button.tsx';
import { MachineChip } from './machine-chip.tsx';
import { UsageChip } from './usage-chip.tsx';
import { WorktreeSlotContext } from '../../lib/worktree-slot.ts';

import { AdoptedChip, BypassChip, ControlChip } from './session-facts.tsx';
import './session-screen.css';

/** Chat ⇄ terminal, for PTY sessions: one button that names where it goes. Away from the chat
 *  (terminal, changes, files) it leads back to the chat, for every kind of session. */
function ViewToggle({ session }: { session: Session }) {
  const onChat = useRouterState({ select: (state) => state.location.pathname.replace(/\/+$/, '').endsWith(session.id) });
  if (onChat && session.launchKind !== 'pty') return null;
  return !onChat ? (
    <Link to="/sessions/$sessionId" params={{ sessionId: session.id }} className="icon-button view-toggle" aria-label="Chat" title="Chat">
      <IconChat size={22} />
    </Link>
  ) : (
    <Link
      to="/sessions/$sessionId/terminal"
      params={{ sessionId: session.id }}
      className="icon-button view-toggle"
      aria-label="Terminal"
      title="Terminal"
    >
      <IconTerminal size={22} />
    </Link>
  );
}

/** `lifecycle`: the last slot (End / Resume), `review`: Review among the tools, `find`: Find first
 *  among them; composed by the route: features do not import each other. */
export function SessionHeader({ session, lifecycle = null, review = null, find = null }: { session: Session; lifecycle?: ReactNode; review?: ReactNode; find?: ReactNode }) {
  const kind = describeLaunchKind(session.launchKind, session.agent);
  const onWorkspace = useRouterState({ select: (state) => /\/(changes|files)\/?$/.test(state.location.pathname) });
  const worktreeParts = useContext(WorktreeSlotContext);
  return (
    <BackHeader
      className="session-header-live"
      title={sessionTitle(session)}
      below={
        /* Focusable: on a phone this line scrolls sideways, and its chips may all be disabled. */
        <div className="session-header-meta" role="group" aria-label="Session facts" tabIndex={0}>
          <StatusPill status={session.status} />
          {session.bypass ? <BypassChip /> : null}
          {session.capabilities?.adopted ? <AdoptedChip note={session.capabilities.adopted.note} /> : null}
          <Badge title={kind.title}>{kind.label}</Badge>
          {/* What is switched from the phone is what the agent's capabilities allow in this launch
              kind; otherwise the model is shown as the agent reported it. */}
          {canSwitch(session.capabilities, 'modes', session.launchKind) ? <ModePicker session={session} /> : null}
          {canSwitch(session.capabilities, 'models', session.launchKind) || canSwitch(session.capabilities, 'effort', session.launchKind) ? (
            <ModelPicker session={session} />
          ) : session.model ? (
            <Badge title={`The model ${agentDisplayName(session.agent, session.capabilities)} runs`}>{session.model}</Badge>
          ) : null}
          <UsageChip session={session} />
          <ControlChip session={session} />
          <MachineChip session={session} />
          {session.worktree && worktreeParts ? <worktreeParts.Badge worktree={session.worktree} /> : null}
          <span className="session-header-dir" title={[session.cwd, ...(session.addedDirs ?? []).map((dir) => `+ ${dir}`)].join('\n')}>
            {formatDirectory(session.cwd, { max: 40 })}
            {session.addedDirs?.length ? ` +${session.addedDirs.length}` : null}
          </span>
        </div>
      }
    >
      <div className="session-header-tools">
        {find}
        <Link
          to="/sessions/$sessionId/changes"
          params={{ sessionId: session.id }}
          className="icon-button workspace-button"
          aria-label="Changes and files"
          title="Changes and files"
          aria-current={onWorkspace ? 'page' : undefined}
        >
          <IconDiff size={20} />
        </Link>
        <ActivityButton sessionId={session.id} />
        <ShareButton sessionId={session.id} />
        <ShellButton session={session} />
        {review}
      </div>
      <div className="session-header-actions">
        <ViewToggle session={session} />
        {lifecycle}
      </div>
    </BackHeader>
  );
}
