// archive-worktree-dialog.tsx: Archive of an ended session that ran in a worktree of its own asks
// first: keep the worktree, or remove it (issue 30). The machine's daemon is asked what removing it
// would lose (worktree:inspect: uncommitted files, commits no remote has); with any, removing means
// pressing a button that says so, under the list of what goes. Machine offline: Archive still works,
// and the dialog says the worktree stays. Removal comes first, then the archive; a refusal of either
// stays in the dialog as an alert.
import { useEffect, useState } from 'react';
import { useModal } from '../../lib/ui/use-modal.ts';
import type { WorktreeLoss } from '@tether/shared';
import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import type { ArchiveWorktreeProps } from '../../lib/worktree-slot.ts';
import '../lifecycle/lifecycle.css';
import './worktrees.css';

type Check = { kind: 'checking' } | { kind: 'known'; loss: WorktreeLoss } | { kind: 'offline'; message: string } | { kind: 'unknown'; message: string };

/** "2 uncommitted files and 1 unpushed commit": what the remove button names. */
export function lossSummary(loss: WorktreeLoss): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return [loss.uncommitted.length ? n(loss.uncommitted.length, 'uncommitted file') : '', loss.unpushed.length ? n(loss.unpushed.length, 'unpushed commit') : '']
    .filter(Boolean)
    .join(' and ');
}

/** The hub's reason as a sentence of its own ("machine … is offline" → "Machine … is offline"). */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function LossList({ loss }: { loss: WorktreeLoss }) {
  const group = (title: string, items: string[]) =>
    items.length ? (
      <div className="worktree-loss-group">
        <strong>{title}</strong>
        <ul className="worktree-loss">
          {items.slice(0, 8).map((item) => (
            <li key={item}>{item}</li>
          ))}
          {items.length > 8 ? <li>{`and ${items.length - 8} more`}</li> : null}
        </ul>
      </div>
    ) : null;
  return (
    <>
      {group('Not committed', loss.uncommitted)}
      {group('Committed, but no remote has them', loss.unpushed)}
    </>
  );
}

function useCheck(sessionId: string): Check {
  const [check, setCheck] = useState<Check>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    requestHub('worktree:inspect', { sessionId }).then(
      (ack) => live && setCheck({ kind: 'known', loss: ack.loss }),
      (error: unknown) => {
        if (!live) return;
        const message = error instanceof Error ? error.message : String(error);
        setCheck(error instanceof SocketRequestError && error.reason === 'machine_offline' ? { kind: 'offline', message } : { kind: 'unknown', message });
      },
    );
    return () => {
      live = false;
    };
  }, [sessionId]);
  return check;
}

export function ArchiveWorktreeDialog({ session, onClose, onArchived }: ArchiveWorktreeProps) {
  const check = useCheck(session.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const worktree = session.worktree!;
  const { titleId, textId, props } = useModal({ busy, onClose });

  const archive = async (remove: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const loses = check.kind === 'known' && (check.loss.uncommitted.length > 0 || check.loss.unpushed.length > 0);
      if (remove) await requestHub('worktree:remove', { sessionId: session.id, confirm: loses });
      await requestHub('session:archive', { sessionId: session.id, archived: true });
      onArchived(remove);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setBusy(false);
    }
  };

  const loss = check.kind === 'known' ? lossSummary(check.loss) : '';
  return (
    <dialog {...props} className="confirm-dialog">
      <h2 id={titleId} className="confirm-dialog-title">
        Archive, and its worktree?
      </h2>
      <div id={textId} className="confirm-dialog-text">
        <p>
          This session ran in its own worktree on the branch <code className="worktree-chip">{worktree.branch}</code>, at <code className="worktree-chip">{worktree.path}</code>.
        </p>
        {check.kind === 'checking' ? (
          <p role="status">
            <Spinner size={14} /> Asking the machine what removing it would lose…
          </p>
        ) : null}
        {check.kind === 'known' && !loss ? <p>Everything in it is committed and pushed: removing it loses nothing (the branch stays).</p> : null}
        {check.kind === 'known' && loss ? <p>{`Removing it would lose ${loss}:`}</p> : null}
        {check.kind === 'offline' ? <p>{`${sentence(check.message)}. Archive keeps the worktree; remove it later at the desk.`}</p> : null}
        {check.kind === 'unknown' ? <p>{`Could not tell what removing it would lose (${check.message}). Archive keeps the worktree.`}</p> : null}
      </div>
      {check.kind === 'known' ? <LossList loss={check.loss} /> : null}
      {error ? (
        <p className="confirm-dialog-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="confirm-dialog-actions worktree-actions">
        <button type="button" className="button" disabled={busy} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button button-primary" autoFocus disabled={busy} onClick={() => void archive(false)}>
          Archive, keep worktree
        </button>
        {check.kind === 'known' ? (
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void archive(true)}>
            {loss ? `Remove and lose ${loss}` : 'Archive, remove worktree'}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}
