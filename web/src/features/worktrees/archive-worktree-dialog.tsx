// archive-worktree-dialog.tsx: Archive of an ended session that ran in a worktree of its own asks
// first: keep the worktree, or remove it (issue 30). The machine's daemon is asked what removing it
// would lose (worktree:inspect: uncommitted files, commits no remote has, files git ignores; the
// rebuildable folders apart, with their size: loss-list.tsx); with any loss, removing means pressing
// a button that says so, under the list of what goes, and it sends the loss's digest: the machine
// removes only if that is still all. Machine offline, or its tether too old to name ignored files:
// Archive still works, and the dialog says the worktree stays. Removal comes first, then the archive;
// a refusal of either stays in the dialog as an alert (a removal refused because what is there
// changed asks the machine again, and the lists show what is there now).
import { useEffect, useState } from 'react';
import { useModal } from '../../lib/ui/use-modal.ts';
import type { WorktreeLoss } from '@tether/shared';
import { requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import type { ArchiveWorktreeProps } from '../../lib/worktree-slot.ts';
import { LossList, lossSummary } from './loss-list.tsx';
import '../lifecycle/lifecycle.css';
import './worktrees.css';

type Check = { kind: 'checking' } | { kind: 'known'; loss: WorktreeLoss } | { kind: 'offline'; message: string } | { kind: 'unknown'; message: string };

/** A removal refused because what it would lose is not what the person confirmed (the machine's
 *  answer to the second look differs): the lists now show it, the daemon's long sentence would repeat them. */
const CHANGED = 'Nothing was removed: what removing it would lose changed since you looked. The lists show it as it is now; confirm again to remove it.';

/** The hub's reason as a sentence of its own ("machine … is offline" → "Machine … is offline"). */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The machine's answer; asked again on `round` (a removal refused because what is there changed). */
function useCheck(sessionId: string, round: number): Check {
  const [check, setCheck] = useState<Check>({ kind: 'checking' });
  useEffect(() => {
    let live = true;
    setCheck({ kind: 'checking' });
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
  }, [sessionId, round]);
  return check;
}

/** What the answer says above the lists, by what the machine found. */
function Finding({ check }: { check: Check }) {
  if (check.kind === 'checking') {
    return (
      <p role="status">
        <Spinner size={14} /> Asking the machine what removing it would lose…
      </p>
    );
  }
  if (check.kind === 'offline') return <p>{`${sentence(check.message)}. Archive keeps the worktree; remove it later at the desk.`}</p>;
  if (check.kind === 'unknown') return <p>{`Could not tell what removing it would lose (${check.message}). Archive keeps the worktree.`}</p>;
  if (check.loss.digest === null) {
    return <p>tether on that machine is too old to name the files git ignores (.env, build output) that removing would delete. Update it there to remove the worktree from here; Archive keeps it.</p>;
  }
  const loss = lossSummary(check.loss);
  if (loss) return <p>{`Removing it would lose ${loss}:`}</p>;
  const rebuildable = check.loss.rebuildable.length + check.loss.rebuildableMore > 0;
  return <p>{`Everything in it is committed and pushed${rebuildable ? ', and what git ignores is rebuildable' : ''}: removing it loses nothing (the branch stays).`}</p>;
}

export function ArchiveWorktreeDialog({ session, onClose, onArchived }: ArchiveWorktreeProps) {
  const [round, setRound] = useState(0);
  const check = useCheck(session.id, round);
  const [busy, setBusy] = useState(false);
  /** A refusal, and the confirmation a refused removal sent (null: not a removal's). */
  const [error, setError] = useState<{ message: string; sent: string | boolean | null } | null>(null);
  const worktree = session.worktree!;
  const { titleId, textId, props } = useModal({ busy, onClose });

  const archive = async (remove: boolean) => {
    setBusy(true);
    setError(null);
    let confirm: string | boolean = false;
    try {
      // The confirmation names what was shown: the machine removes only if that is still all.
      confirm = check.kind === 'known' && lossSummary(check.loss) ? (check.loss.digest ?? false) : false;
      if (remove) await requestHub('worktree:remove', { sessionId: session.id, confirm });
      await requestHub('session:archive', { sessionId: session.id, archived: true });
      onArchived(remove);
    } catch (failure) {
      const refusedRemoval = remove && failure instanceof SocketRequestError && failure.code === 'conflict';
      setError({ message: failure instanceof Error ? failure.message : String(failure), sent: refusedRemoval ? confirm : null });
      setBusy(false);
      // Perhaps what is there is not what was shown: ask again, and show what is there now.
      if (refusedRemoval) setRound((r) => r + 1);
    }
  };

  const loss = check.kind === 'known' ? lossSummary(check.loss) : '';
  const removable = check.kind === 'known' && check.loss.digest !== null;
  return (
    <dialog {...props} className="confirm-dialog">
      <h2 id={titleId} className="confirm-dialog-title">
        Archive, and its worktree?
      </h2>
      <div id={textId} className="confirm-dialog-text">
        <p>
          This session ran in its own worktree on the branch <code className="worktree-chip">{worktree.branch}</code>, at <code className="worktree-chip">{worktree.path}</code>.
        </p>
        <Finding check={check} />
      </div>
      {check.kind === 'known' && removable ? <LossList loss={check.loss} /> : null}
      {error ? (
        <p className="confirm-dialog-error" role="alert">
          {check.kind === 'known' && error.sent !== null && check.loss.digest !== error.sent ? CHANGED : error.message}
        </p>
      ) : null}
      <div className="confirm-dialog-actions worktree-actions">
        <button type="button" className="button" disabled={busy} onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button button-primary" autoFocus disabled={busy} onClick={() => void archive(false)}>
          Archive, keep worktree
        </button>
        {removable ? (
          <button type="button" className="button button-danger" disabled={busy} onClick={() => void archive(true)}>
            {loss ? `Remove and lose ${loss}` : 'Archive, remove worktree'}
          </button>
        ) : null}
      </div>
    </dialog>
  );
}
