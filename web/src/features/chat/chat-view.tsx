// chat-view.tsx: the session's chat screen body: messages (live), the composer and Stop; once the
// session is over, its end notice with Resume in the composer's place.
// It renders what useSessionChat keeps in step with the hub; it owns no socket itself.
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Session } from '@tether/shared';
import { agentDisplayName, isFinalStatus } from '@tether/shared/wire';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../lib/ui/badge.tsx';
import { markFirstScreen } from '../../lib/first-screen.ts';
import { machinesQuery } from '../../lib/queries.ts';
import { buildChatItems } from './chat-items.ts';
import { Composer, type ComposerHandle } from './composer.tsx';
import { MessageList } from './message-list.tsx';
import { foundRowKey, type ChatPlace } from './found-message.ts';
import { useSessionChat } from './use-session-chat.ts';

import type { OutgoingPrompt } from './chat-state.ts';
import { ShowInTerminalContext, type ShowInTerminal } from './show-in-terminal.ts';
import { WorkspaceLinksContext, type WorkspaceLinks } from './workspace-links.ts';
import './chat.css';

/** `readOnly`: a share link's view: no composer, no Stop, no paging back (that needs a login).
 *  `showInTerminal`: how a tool card opens the terminal at its call (PTY sessions; none: no button).
 *  `endNotice`: what stands in the composer's place once the session is over (the route's Resume).
 *  `workspaceLinks`: how a tool card's file opens in Files or Changes (none: plain paths).
 *  `cards`: what the route shows under the messages (the session's review cards).
 *  `found`: Find's place to scroll to and light up (older messages are paged in to reach it). */
export function ChatView({
  session,
  readOnly = false,
  showInTerminal = null,
  endNotice = null,
  workspaceLinks = null,
  cards = null,
  found = null,
}: {
  session: Session;
  readOnly?: boolean;
  showInTerminal?: ShowInTerminal | null;
  endNotice?: ReactNode;
  workspaceLinks?: WorkspaceLinks | null;
  cards?: ReactNode;
  found?: ChatPlace | null;
}) {
  // A share link's viewer never reads or keeps the phone cache (it has no login, so no key).
  const chat = useSessionChat(session.id, { cache: !readOnly });
  const items = useMemo(() => buildChatItems(chat.messages), [chat.messages]);
  const composerRef = useRef<ComposerHandle>(null);
  const foundKey = found ? foundRowKey({ place: found, messages: chat.messages, items }) : null;
  // Its messages (or its error) drawn: what waited for the first screen may run (lib/first-screen.ts).
  useEffect(() => {
    if (chat.phase !== 'loading') markFirstScreen();
  }, [chat.phase]);
  const { hasEarlier, loadingEarlier, loadEarlier } = chat;
  useEffect(() => {
    if (foundKey === 'earlier' && hasEarlier && !loadingEarlier) loadEarlier();
  }, [foundKey, hasEarlier, loadingEarlier, loadEarlier]);
  // One object per place found: the list jumps again only for a new one.
  const foundRow = useMemo(() => (found && foundKey && foundKey !== 'earlier' ? { key: foundKey } : null), [found, foundKey]);
  const { sendPrompt, dismissPrompt, editPrompt, withdrawPrompt } = chat;
  // A share link's view has no machine list (and no queue to change).
  const machines = useQuery({ ...machinesQuery, enabled: !readOnly }).data;
  const machineOffline = machines?.find((m) => m.id === session.machineId)?.online === false;
  const held = useMemo(
    () => ({ why: machineOffline ? 'machine offline' : 'waiting for the runner', edit: editPrompt, withdraw: withdrawPrompt }),
    [machineOffline, editPrompt, withdrawPrompt],
  );

  const onSend = useCallback((message: { text: string; attachments: string[] }) => void sendPrompt(message), [sendPrompt]);
  const onEditPrompt = useCallback(
    (prompt: OutgoingPrompt) => {
      composerRef.current?.setText(prompt.text);
      dismissPrompt(prompt.id);
    },
    [dismissPrompt],
  );

  return (
    <ShowInTerminalContext.Provider value={session.launchKind === 'pty' ? showInTerminal : null}>
    <WorkspaceLinksContext.Provider value={workspaceLinks}>
    <div className="chat">
      {chat.phase === 'error' ? (
        <div className="banner banner-danger" role="alert">
          Couldn't open this chat: {chat.error}
        </div>
      ) : null}
      {chat.phase === 'loading' ? (
        <div className="chat-loading">
          <Spinner size={22} label="Loading chat" />
        </div>
      ) : (
        <MessageList
          items={items}
          prompts={chat.prompts}
          thinking={session.status === 'thinking'}
          hasEarlier={readOnly ? false : chat.hasEarlier}
          loadingEarlier={chat.loadingEarlier}
          onLoadEarlier={chat.loadEarlier}
          onRetryPrompt={chat.retryPrompt}
          onDismissPrompt={chat.dismissPrompt}
          onEditPrompt={onEditPrompt}
          {...(readOnly ? {} : { held })}
          found={foundRow}
          empty={
            <div className="chat-empty">
              <p className="chat-empty-title">No messages yet</p>
              <p>{readOnly ? 'Messages appear here as the session goes on.' : `Messages you send here are typed into ${agentDisplayName(session.agent, session.capabilities)} when it's ready.`}</p>
            </div>
          }
        />
      )}
      {cards}
      {readOnly ? null : isFinalStatus(session.status) ? (
        endNotice
      ) : (
        <Composer
          ref={composerRef}
          sessionId={session.id}
          launchKind={session.launchKind}
          placeholder={`Message ${agentDisplayName(session.agent, session.capabilities)}, or / for commands`}
          onSend={onSend}
          onStop={chat.abort}
          running={session.status === 'thinking'}
        />
      )}
    </div>
    </WorkspaceLinksContext.Provider>
    </ShowInTerminalContext.Provider>
  );
}
