// session-actions.tsx: a session row's menu (the ⋯ button): pin or unpin, archive or unarchive.
// The marks live on the hub (session:pin / session:archive), so every device of the namespace sees
// them; nothing here is optimistic: the row moves when the hub's `session:updated` arrives.
// A running session cannot be archived (the hub refuses it too): whatever it asks must stay in sight,
// so the item says to end it first. Keyboard: the menu opens with focus on its first item, arrows
// move, Escape or a tap outside closes it (use-popover.ts). An ended session whose reviews still run
// is refused by the hub (reason `reviews_live`): the route's `archiveQuestion` slot then asks what
// becomes of them, and archives with the answer.
import { useContext, useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { LiveReviewsChoice, Session } from '@tether/shared';
import { isArchived, isFinalStatus } from '@tether/shared/wire';
import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { usePopover } from '../../lib/ui/use-popover.ts';
import { IconArchive, IconMore, IconPin } from '../../lib/ui/icons.tsx';
import { WorktreeSlotContext } from '../../lib/worktree-slot.ts';

/** What a finished action tells the list (it announces it and may offer to undo it). */
export type SessionActionDone = { text: string; undo?: () => Promise<void> };

const setPinned = async (sessionId: string, pinned: boolean) => void (await requestHub('session:pin', { sessionId, pinned }));
const setArchived = async (sessionId: string, archived: boolean, reviews?: LiveReviewsChoice) =>
  void (await requestHub('session:archive', { sessionId, archived, ...(reviews ? { reviews } : {}) }));

/** Asks what becomes of the live reviews of a session being archived; `onArchive` archives with the answer. */
export type ArchiveQuestionSlot = (o: { sessionId: string; title: string; onArchive: (choice: LiveReviewsChoice) => Promise<void>; onClose: () => void }) => ReactNode;

/** What Archive after the worktree question tells the list (undo unarchives; a removal stays done). */
const archivedWith = (sessionId: string, title: string, removed: boolean): SessionActionDone => ({
  text: removed ? `Archived “${title}” and removed its worktree.` : `Archived “${title}”; its worktree stays.`,
  undo: () => setArchived(sessionId, false),
});

export function SessionActions(o: { session: Session; title: string; onDone: (done: SessionActionDone) => void; archiveQuestion?: ArchiveQuestionSlot | undefined }) {
  const { session, title, onDone } = o;
  const [asking, setAsking] = useState(false);
  const { open, setOpen, panelId, rootRef, buttonRef, triggerProps } = usePopover();
  const menuRef = useRef<HTMLDivElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** A session with a worktree of its own asks about it before Archive (features/worktrees). */
  const [askWorktree, setAskWorktree] = useState(false);
  const ArchiveWorktreeDialog = useContext(WorktreeSlotContext)?.ArchiveDialog;
  const hasWorktree = ArchiveWorktreeDialog !== undefined && session.worktree != null && session.worktree.removedAt === null;
  const pinned = session.pinnedAt != null;
  const archived = isArchived(session);

  useEffect(() => {
    if (!open) return;
    setError(null);
    const menu = menuRef.current;
    menu?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus();
    // The last row's menu opens below the fold on a phone: bring it into view.
    menu?.parentElement?.scrollIntoView({ block: 'nearest' });
  }, [open]);

  const run = async (action: () => Promise<void>, done: SessionActionDone) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      setOpen(false);
      onDone(done);
    } catch (failure) {
      if (o.archiveQuestion && failure instanceof SocketRequestError && failure.reason === 'reviews_live') {
        setOpen(false);
        setAsking(true);
        return;
      }
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (move !== undefined && items.length > 0) {
      event.preventDefault();
      items[(move + items.length) % items.length]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const pinItem = (
    <button
      type="button"
      role="menuitem"
      className="menu-item"
      disabled={busy}
      onClick={() =>
        void run(() => setPinned(session.id, !pinned), {
          text: pinned ? `Unpinned “${title}”.` : `Pinned “${title}”.`,
        })
      }
    >
      <IconPin size={18} />
      {pinned ? 'Unpin' : archived ? 'Pin (brings it back)' : 'Pin to top'}
    </button>
  );
  const archiveItem = archiveMenuItem({
    session,
    title,
    busy,
    hintId: `${panelId}-archive-hint`,
    archive: () =>
      hasWorktree
        ? (setOpen(false), setAskWorktree(true))
        : void run(() => setArchived(session.id, true), {
            text: `Archived “${title}”.`,
            undo: () => setArchived(session.id, false),
          }),
    unarchive: () => void run(() => setArchived(session.id, false), { text: `Unarchived “${title}”.` }),
  });

  return (
    <div className="session-row-actions" ref={rootRef}>
      <button
        {...triggerProps('menu')}
        className="icon-button session-row-more"
        aria-label={`Actions for ${title}`}
      >
        <IconMore size={20} />
      </button>
      {open ? (
        <div className="menu session-row-menu">
          <div id={panelId} role="menu" aria-label={`Actions for ${title}`} ref={menuRef} onKeyDown={onMenuKey}>
            {pinItem}
            {archiveItem}
          </div>
          {error ? (
            <p className="menu-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      {asking && o.archiveQuestion ? (
        <ReviewsQuestion {...{ session, title, onDone }} slot={o.archiveQuestion} onClose={() => setAsking(false)} returnFocus={buttonRef} />
      ) : null}
      {askWorktree && ArchiveWorktreeDialog ? (
        <ArchiveWorktreeDialog session={session} onClose={() => setAskWorktree(false)} onArchived={(removed) => (setAskWorktree(false), onDone(archivedWith(session.id, title, removed)))} />
      ) : null}
    </div>
  );
}

/** The route's question about live reviews; archives with the answer. */
function ReviewsQuestion(o: {
  session: Session;
  title: string;
  onDone: (done: SessionActionDone) => void;
  slot: ArchiveQuestionSlot;
  onClose: () => void;
  /** Where focus goes when the question closes: the menu's button. */
  returnFocus: RefObject<HTMLButtonElement | null>;
}) {
  const { session, title } = o;
  return o.slot({
    sessionId: session.id,
    title,
    onArchive: async (choice) => {
      await setArchived(session.id, true, choice);
      o.onDone({ text: `Archived “${title}”.`, undo: () => setArchived(session.id, false) });
    },
    onClose: () => {
      o.onClose();
      requestAnimationFrame(() => o.returnFocus.current?.focus());
    },
  });
}

/** The menu's Archive item: Unarchive, Archive, or (running) Archive described as unavailable. */
function archiveMenuItem(o: { session: Session; title: string; busy: boolean; hintId: string; archive: () => void; unarchive: () => void }): ReactNode {
  if (isArchived(o.session)) {
    return (
      <button type="button" role="menuitem" className="menu-item" disabled={o.busy} onClick={o.unarchive}>
        <IconArchive size={18} />
        Unarchive
      </button>
    );
  }
  if (isFinalStatus(o.session.status)) {
    return (
      <button type="button" role="menuitem" className="menu-item" disabled={o.busy} onClick={o.archive}>
        <IconArchive size={18} />
        Archive
      </button>
    );
  }
  // Focusable and described rather than hidden: the person learns why and what to do.
  return (
    <button type="button" role="menuitem" className="menu-item menu-item-unavailable" aria-disabled="true" aria-describedby={o.hintId} onClick={(e) => e.preventDefault()}>
      <IconArchive size={18} />
      <span className="menu-item-text">
        Archive
        {/* Its description, not part of its name ("Archive"): hidden from the name, read through aria-describedby. */}
        <span className="menu-item-hint" id={o.hintId} aria-hidden="true">
          End it first: a running session stays in the list
        </span>
      </span>
    </button>
  );
}
