// message-list.tsx: the scrolling chat, windowed: only the rows near the viewport are in the DOM,
// so a 10k-message session scrolls like a short one. It follows the bottom while the reader is at
// the bottom, stays put when they scrolled up to read (a "Jump to latest" button takes them back),
// and keeps its place when older messages are prepended. A row Find jumps to (`found`) is scrolled
// to the middle and lit up for FOUND_MS.
//
//   rows = [load earlier?] [empty?] items… prompts… [typing?] ─► @tanstack/react-virtual
//   (measured per row, keyed by item key: a prepend or a re-render never re-measures the world)
import { Fragment, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { formatClockTime } from '../../lib/format.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconAttach, IconChevron } from '../../lib/ui/icons.tsx';
import { Markdown } from '../../lib/ui/markdown.tsx';
import { splitAttachmentMentions } from '@tether/shared/wire';
import type { ChatItem } from './chat-items.ts';
import type { OutgoingPrompt } from './chat-state.ts';
import { ToolCard } from './tool-card.tsx';
import { HeldPrompt, type HeldPromptActions } from './held-prompt.tsx';
import { isHeldByHub } from '@tether/shared/wire';
import { ExpandedContext, useExpanded, useExpandedItems } from './expanded.ts';
import { useAgentName } from '../../lib/agent-name.ts';
import './chat.css';

/** How close to the bottom (px) still counts as "at the bottom" for following new messages. */
const STICK_TO_BOTTOM_PX = 120;
/** A first guess at a row's height before it is measured: a one-line message or a folded tool card. */
const ESTIMATED_ROW_PX = 72;
/** Rows rendered beyond each edge of the viewport: enough that a fling on a phone shows no blank. */
const OVERSCAN_ROWS = 8;
/** Space between rows and around the list (the old flex column's gap and padding). */
const ROW_GAP_PX = 10;
const LIST_PADDING_TOP_PX = 16;
const LIST_PADDING_BOTTOM_PX = 20;
/** How long a row Find jumped to stays lit. */
const FOUND_MS = 4_000;
/** How long a prepend keeps the reader's row in place while the new rows get their real heights. */
const HOLD_ANCHOR_MS = 1_000;

function Thinking({ itemKey, text }: { itemKey: string; text: string }) {
  const [open, toggle] = useExpanded(itemKey);
  return (
    <div className="thinking">
      <button type="button" className="thinking-head" aria-expanded={open} onClick={toggle}>
        <IconChevron size={14} className="thinking-chevron" />
        Thought
      </button>
      {open ? <div className="thinking-body">{text}</div> : null}
    </div>
  );
}

function Subagent({ itemKey, items, live }: { itemKey: string; items: ChatItem[]; live: boolean }) {
  const [open, toggle] = useExpanded(itemKey);
  const tools = items.filter((i) => i.kind === 'tool').length;
  return (
    <div className="subagent">
      <button type="button" className="subagent-head" aria-expanded={open} onClick={toggle}>
        <IconChevron size={14} className="thinking-chevron" />
        Subagent · {tools} tool call{tools === 1 ? '' : 's'}
      </button>
      {open ? <div className="subagent-body">{items.map((item) => renderItem(item, live))}</div> : null}
    </div>
  );
}

/** File names, each in its own bidi isolate: a right-to-left name (or a control an older hub kept)
 *  never reorders the names around it or the text after it. */
function FileNames({ names }: { names: string[] }) {
  return (
    <>
      {names.map((name, i) => (
        <Fragment key={i}>
          {i > 0 ? ', ' : null}
          <bdi>{name}</bdi>
        </Fragment>
      ))}
    </>
  );
}

/** A prompt sent with files reads as the files' names and the words, not the runner's @paths. */
function UserBubble({ text }: { text: string }) {
  const { files, text: words } = splitAttachmentMentions(text);
  return (
    <div className="bubble">
      {words}
      {files.length > 0 ? (
        <span className={`bubble-files${words.trim() ? '' : ' is-alone'}`}>
          <IconAttach size={13} /> <FileNames names={files} />
        </span>
      ) : null}
    </div>
  );
}

function renderItem(item: ChatItem, live: boolean): ReactNode {
  switch (item.kind) {
    case 'user':
      return (
        <div key={item.key} className="msg msg-user">
          <UserBubble text={item.text} />
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
      return <Thinking key={item.key} itemKey={item.key} text={item.text} />;
    case 'tool':
      return <ToolCard key={item.key} itemKey={item.key} use={item.use} result={item.result} live={live} />;
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
      return <Subagent key={item.key} itemKey={item.key} items={item.items} live={live} />;
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
      <div className="bubble">
        {prompt.text}
        {(prompt.attachments?.length ?? prompt.attachmentIds?.length ?? 0) > 0 ? (
          <span className={`bubble-files${prompt.text.trim() ? '' : ' is-alone'}`}>
            <IconAttach size={13} />{' '}
            {prompt.attachments?.length
              ? <FileNames names={prompt.attachments.map((a) => a.name)} />
              : `${prompt.attachmentIds!.length} ${prompt.attachmentIds!.length === 1 ? 'file' : 'files'}`}
          </span>
        ) : null}
      </div>
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
  /** Edit and withdraw of prompts the hub still holds (absent: read-only, shown as queued). */
  held?: HeldPromptActions;
  empty: ReactNode;
  /** The row to scroll to and light up (Find's result); a new object jumps again. */
  found?: { key: string } | null;
};

type Row =
  | { kind: 'earlier'; key: string }
  | { kind: 'empty'; key: string }
  | { kind: 'item'; key: string; item: ChatItem }
  | { kind: 'prompt'; key: string; prompt: OutgoingPrompt }
  | { kind: 'typing'; key: string };

/** The list's height before its rows are measured. */
function estimatedHeight(rowCount: number): number {
  return LIST_PADDING_TOP_PX + rowCount * (ESTIMATED_ROW_PX + ROW_GAP_PX) - ROW_GAP_PX + LIST_PADDING_BOTTOM_PX;
}

function buildRows(props: MessageListProps): Row[] {
  const rows: Row[] = [];
  if (props.hasEarlier) rows.push({ kind: 'earlier', key: 'earlier' });
  if (props.items.length === 0 && props.prompts.length === 0 && !props.thinking) rows.push({ kind: 'empty', key: 'empty' });
  for (const item of props.items) rows.push({ kind: 'item', key: item.key, item });
  for (const prompt of props.prompts) rows.push({ kind: 'prompt', key: `prompt:${prompt.id}`, prompt });
  if (props.thinking) rows.push({ kind: 'typing', key: 'typing' });
  return rows;
}

export const MessageList = memo(function MessageList(props: MessageListProps) {
  const agent = useAgentName();
  const scrollRef = useRef<HTMLDivElement>(null);
  const expanded = useExpandedItems();
  const rows = useMemo(() => buildRows(props), [props]);
  const [atBottom, setAtBottom] = useState(true);
  const lastItemKey = props.items[props.items.length - 1]?.key;
  // New messages that arrived while the reader was scrolled up (shown on the jump button).
  const [unseen, setUnseen] = useState(0);
  const seenLastKey = useRef(lastItemKey);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // The first render draws the newest screenful, where the list opens: left at the top, it drew
    // (and measured) the oldest rows first, then the newest after the scroll to the bottom, twice
    // the rows of a slow phone's first frame. Until the list is measured: the window's size.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    initialOffset: () => Math.max(0, estimatedHeight(rows.length) - window.innerHeight),
    estimateSize: () => ESTIMATED_ROW_PX,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: OVERSCAN_ROWS,
    gap: ROW_GAP_PX,
    paddingStart: LIST_PADDING_TOP_PX,
    paddingEnd: LIST_PADDING_BOTTOM_PX,
  });

  const totalSize = virtualizer.getTotalSize();

  const anchor = usePrependAnchor({ scrollRef, virtualizer, rows });
  const lit = useFoundRow({ found: props.found ?? null, rows, virtualizer, leaveBottom: () => setAtBottom(false) });
  const loadEarlier = () => {
    anchor.remember();
    props.onLoadEarlier();
  };
  const releaseAnchor = anchor.release;

  // First paint starts at the newest message, and while the reader is at the bottom it stays there:
  // rows grow once measured (markdown, code blocks) and new ones arrive. Written to scrollTop
  // directly, not through virtualizer.scrollToIndex: that one keeps re-aiming for seconds and would
  // pull back a reader who starts scrolling up right away.
  useLayoutEffect(() => {
    const node = scrollRef.current;
    if (node && atBottom) node.scrollTop = node.scrollHeight;
  }, [totalSize, atBottom]);

  useEffect(() => {
    if (lastItemKey === seenLastKey.current) return;
    if (atBottom) seenLastKey.current = lastItemKey;
    else setUnseen((n) => n + 1);
  }, [lastItemKey, atBottom]);

  const onScroll = useCallback(() => {
    const node = scrollRef.current;
    if (!node) return;
    const bottom = node.scrollHeight - node.scrollTop - node.clientHeight < STICK_TO_BOTTOM_PX;
    setAtBottom(bottom);
    if (bottom) setUnseen(0);
  }, []);

  const jumpToLatest = () => {
    setUnseen(0);
    seenLastKey.current = lastItemKey;
    setAtBottom(true); // the effect above scrolls, and keeps the bottom while rows get measured
  };

  const renderRow = (row: Row): ReactNode => {
    switch (row.kind) {
      case 'earlier':
        return (
          <div className="earlier">
            <button type="button" className="button button-quiet" onClick={loadEarlier} disabled={props.loadingEarlier}>
              {props.loadingEarlier ? <Spinner size={14} /> : null}
              Load earlier messages
            </button>
          </div>
        );
      case 'empty':
        return props.empty;
      case 'item':
        return renderItem(row.item, props.thinking);
      case 'prompt':
        return props.held && row.prompt.failed === undefined && isHeldByHub(row.prompt) ? (
          <HeldPrompt prompt={row.prompt} actions={props.held} />
        ) : (
          <PendingPrompt
            prompt={row.prompt}
            onRetry={() => props.onRetryPrompt(row.prompt.id)}
            onDismiss={() => props.onDismissPrompt(row.prompt.id)}
            onEdit={() => props.onEditPrompt(row.prompt)}
          />
        );
      case 'typing':
        return (
          <div className="typing" role="status" aria-label={`${agent} is working`}>
            <span className="typing-dot" />
            <span className="typing-dot" />
            <span className="typing-dot" />
          </div>
        );
      default: {
        const never: never = row;
        return never;
      }
    }
  };

  return (
    <ExpandedContext.Provider value={expanded}>
      <div className="chat-scroll-wrap">
        {/* Focusable, so the chat scrolls from the keyboard too (axe: scrollable-region-focusable). */}
        <div className="chat-scroll" ref={scrollRef} tabIndex={0} onScroll={onScroll} onWheel={releaseAnchor} onTouchStart={releaseAnchor}>
          <div
            className="chat-column chat-virtual"
            role="log"
            aria-label="Chat"
            aria-live="polite"
            aria-relevant="additions"
            data-rows={rows.length}
            style={{ height: totalSize }}
          >
            {virtualizer.getVirtualItems().map((virtual) => {
              const row = rows[virtual.index];
              if (!row) return null;
              return (
                <div
                  key={virtual.key as string}
                  className={row.key === lit ? 'chat-row chat-row-found' : 'chat-row'}
                  data-index={virtual.index}
                  data-key={virtual.key as string}
                  ref={virtualizer.measureElement}
                  style={{ transform: `translateY(${virtual.start}px)` }}
                >
                  {renderRow(row)}
                </div>
              );
            })}
          </div>
        </div>
        {!atBottom ? (
          <button type="button" className="jump-latest" onClick={jumpToLatest} aria-label={unseen > 0 ? `Jump to latest (${unseen} new)` : 'Jump to latest'}>
            <IconChevron size={18} className="jump-latest-icon" />
            {unseen > 0 ? <span className="jump-latest-count">{unseen} new</span> : null}
          </button>
        ) : null}
      </div>
    </ExpandedContext.Provider>
  );
});

/** Find's row: once it is among the rows, scrolled to the middle (the list stops following the
 *  bottom) and lit for FOUND_MS. Returns the lit row's key. */
function useFoundRow(o: { found: { key: string } | null; rows: Row[]; virtualizer: Virtualizer<HTMLDivElement, Element>; leaveBottom: () => void }) {
  const { found, rows, virtualizer, leaveBottom } = o;
  const [lit, setLit] = useState<string | null>(null);
  const done = useRef<{ key: string } | null>(null);
  const index = found ? rows.findIndex((r) => r.key === found.key) : -1;
  useEffect(() => {
    if (!found || index < 0 || done.current === found) return;
    done.current = found;
    leaveBottom();
    setLit(found.key);
    virtualizer.scrollToIndex(index, { align: 'center' });
  }, [found, index, virtualizer, leaveBottom]);
  useEffect(() => {
    if (lit === null) return;
    const timer = setTimeout(() => setLit(null), FOUND_MS);
    return () => clearTimeout(timer);
  }, [lit, found]);
  return lit;
}

/** "Load earlier" keeps the reader's place: remember() before asking for older rows; release() when
 *  the reader touches the list. */
function usePrependAnchor({ scrollRef, virtualizer, rows }: { scrollRef: RefObject<HTMLDivElement | null>; virtualizer: Virtualizer<HTMLDivElement, Element>; rows: Row[] }) {
  // "Load earlier": remember the first message on screen and where it sits, and keep it there once
  // the older rows are in. They arrive with estimated heights and are measured a frame or two
  // later, so for a moment (HOLD_ANCHOR_MS, or until the reader touches the list) the row is put
  // back where it was after every re-measure, from its real place in the DOM.
  const prependAnchor = useRef<{ key: string; index: number; offset: number; holdUntil: number | null } | null>(null);
  const remember = () => {
    const node = scrollRef.current;
    if (!node) return;
    const top = node.scrollTop;
    const first = virtualizer.getVirtualItems().find((v) => v.end > top && rows[v.index]?.kind === 'item');
    if (first) prependAnchor.current = { key: String(first.key), index: first.index, offset: first.start - top, holdUntil: null };
  };
  const releaseAnchor = useCallback(() => {
    if (prependAnchor.current?.holdUntil !== null) prependAnchor.current = null;
  }, []);
  useLayoutEffect(() => {
    const anchor = prependAnchor.current;
    const node = scrollRef.current;
    if (!anchor || !node) return;
    if (anchor.holdUntil === null) {
      const index = rows.findIndex((r) => r.key === anchor.key);
      const item = index === -1 ? undefined : virtualizer.measurementsCache[index];
      // Not moved: the page has not arrived yet (a live append moves nothing above it).
      if (!item || index === anchor.index) return;
      const target = item.start - anchor.offset;
      // The list's new height reaches the DOM a render after its rows: a write before that would
      // be clamped to the old bottom, so wait for it.
      if (node.scrollHeight - node.clientHeight < target) return;
      anchor.holdUntil = performance.now() + HOLD_ANCHOR_MS;
      virtualizer.scrollToOffset(target);
      return;
    }
    if (performance.now() > anchor.holdUntil) {
      prependAnchor.current = null;
      return;
    }
    const element = node.querySelector<HTMLElement>(`[data-key="${CSS.escape(anchor.key)}"]`);
    if (!element) return;
    const drift = element.getBoundingClientRect().top - node.getBoundingClientRect().top - anchor.offset;
    if (Math.abs(drift) >= 1) node.scrollTop += drift;
  });
  return { remember, release: releaseAnchor };
}
