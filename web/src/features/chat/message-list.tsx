// message-list.tsx: the scrolling chat. It follows the bottom while the reader is at the bottom,
// stays put when they scrolled up to read, and keeps its place when older messages are prepended.
import { memo, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { formatClockTime } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconChevron } from '../../lib/ui/icons.tsx';
import { Markdown } from '../../lib/ui/markdown.tsx';
import type { ChatItem } from './chat-items.ts';
import type { OutgoingPrompt } from './chat-state.ts';
import { ToolCard } from './tool-card.tsx';

/** How close to the bottom (px) still counts as "at the bottom" for following new messages. */
const STICK_TO_BOTTOM_PX = 120;

function Thinking({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="thinking">
      <button type="button" className="thinking-head" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <IconChevron size={14} className="thinking-chevron" />
        Thought
      </button>
      {open ? <div className="thinking-body">{text}</div> : null}
    </div>
  );
}

function Subagent({ items, live }: { items: ChatItem[]; live: boolean }) {
  const [open, setOpen] = useState(false);
  const tools = items.filter((i) => i.kind === 'tool').length;
  return (
    <div className="subagent">
      <button type="button" className="subagent-head" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
        <IconChevron size={14} className="thinking-chevron" />
        Subagent · {tools} tool call{tools === 1 ? '' : 's'}
      </button>
      {open ? <div className="subagent-body">{items.map((item) => renderItem(item, live))}</div> : null}
    </div>
  );
}

function renderItem(item: ChatItem, live: boolean): ReactNode {
  switch (item.kind) {
    case 'user':
      return (
        <div key={item.key} className="msg msg-user">
          <div className="bubble">{item.text}</div>
          <div className="msg-meta">{formatClockTime(item.createdAt)}</div>
        </div>
      );
    case 'assistant-text':
      return (
        <div key={item.key} className="msg msg-assistant">
          <Markdown text={item.text} />
        </div>
      );
    case 'thinking':
      return <Thinking key={item.key} text={item.text} />;
    case 'tool':
      return <ToolCard key={item.key} use={item.use} result={item.result} live={live} />;
    case 'interrupt':
      return (
        <div key={item.key} className="notice notice-interrupt" role="note">
          {item.text}
        </div>
      );
    case 'system':
      return (
        <div key={item.key} className="notice" role="note">
          {item.text}
        </div>
      );
    case 'subagent':
      return <Subagent key={item.key} items={item.items} live={live} />;
    default: {
      const never: never = item;
      return never;
    }
  }
}

const PROMPT_STATUS_WORDS: Record<OutgoingPrompt['status'], string> = {
  queued: 'Queued',
  waiting_for_desk: 'Waiting: someone is typing at the desk',
  typing: 'Sending…',
  delivered: 'Delivered',
  returned: 'Not sent: the turn was stopped',
  dropped: 'Not sent',
};

function PendingPrompt({
  prompt,
  onRetry,
  onDismiss,
  onEdit,
}: {
  prompt: OutgoingPrompt;
  onRetry: () => void;
  onDismiss: () => void;
  onEdit: () => void;
}) {
  const stuck = prompt.failed !== undefined || prompt.status === 'returned' || prompt.status === 'dropped';
  return (
    <div className={`msg msg-user msg-pending ${stuck ? 'is-stuck' : ''}`}>
      <div className="bubble">{prompt.text}</div>
      <div className="msg-meta" role="status">
        {prompt.failed ??
          (prompt.reason && prompt.status === 'dropped'
            ? `${PROMPT_STATUS_WORDS[prompt.status]} (${prompt.reason})`
            : PROMPT_STATUS_WORDS[prompt.status])}
        {stuck ? (
          <span className="msg-actions">
            {prompt.failed !== undefined ? (
              <button type="button" className="link-button" onClick={onRetry}>
                Retry
              </button>
            ) : (
              <button type="button" className="link-button" onClick={onEdit}>
                Edit
              </button>
            )}
            <button type="button" className="link-button" onClick={onDismiss}>
              Dismiss
            </button>
          </span>
        ) : null}
      </div>
    </div>
  );
}

export type MessageListProps = {
  items: ChatItem[];
  prompts: OutgoingPrompt[];
  thinking: boolean;
  hasEarlier: boolean;
  loadingEarlier: boolean;
  onLoadEarlier: () => void;
  onRetryPrompt: (promptId: string) => void;
  onDismissPrompt: (promptId: string) => void;
  onEditPrompt: (prompt: OutgoingPrompt) => void;
  empty: ReactNode;
};

export const MessageList = memo(function MessageList(props: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const prependFrom = useRef<number | null>(null);

  useLayoutEffect(() => {
    const node = scrollRef.current;
    if (!node) return;
    if (prependFrom.current !== null) {
      node.scrollTop += node.scrollHeight - prependFrom.current;
      prependFrom.current = null;
    } else if (atBottom.current) {
      node.scrollTop = node.scrollHeight;
    }
  }, [props.items, props.prompts, props.thinking]);

  const onScroll = () => {
    const node = scrollRef.current;
    if (!node) return;
    atBottom.current = node.scrollHeight - node.scrollTop - node.clientHeight < STICK_TO_BOTTOM_PX;
  };

  const loadEarlier = () => {
    prependFrom.current = scrollRef.current?.scrollHeight ?? null;
    props.onLoadEarlier();
  };

  const nothing = props.items.length === 0 && props.prompts.length === 0 && !props.thinking;

  return (
    <div className="chat-scroll" ref={scrollRef} onScroll={onScroll}>
      <div className="chat-column" role="log" aria-label="Chat" aria-live="polite" aria-relevant="additions">
        {props.hasEarlier ? (
          <div className="earlier">
            <button type="button" className="button button-quiet" onClick={loadEarlier} disabled={props.loadingEarlier}>
              {props.loadingEarlier ? <Spinner size={14} /> : null}
              Load earlier messages
            </button>
          </div>
        ) : null}
        {nothing ? props.empty : null}
        {props.items.map((item) => renderItem(item, props.thinking))}
        {props.prompts.map((prompt) => (
          <PendingPrompt
            key={prompt.id}
            prompt={prompt}
            onRetry={() => props.onRetryPrompt(prompt.id)}
            onDismiss={() => props.onDismissPrompt(prompt.id)}
            onEdit={() => props.onEditPrompt(prompt)}
          />
        ))}
        {props.thinking ? (
          <div className="typing" role="status" aria-label="Claude is working">
            <span className="typing-dot" />
            <span className="typing-dot" />
            <span className="typing-dot" />
          </div>
        ) : null}
      </div>
    </div>
  );
});
