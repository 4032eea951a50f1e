// changes-scope.tsx: what the Changes view compares with, for a session in a worktree of its own:
// what is not committed yet (against HEAD), or the whole branch since it started (the base its
// daemon recorded), so work the agent committed stays in view. The choice lives in the address
// (`?against=base`), so a link keeps it and the back button undoes a switch.
import { useNavigate } from '@tanstack/react-router';
import type { Session, WorktreeBase } from '@tether/shared';
import type { ChangesAgainst } from '../../lib/hub.ts';

/** The recorded start of the session's branch; null without a live worktree of its own (or one
 *  made by a daemon older than the record). */
export function branchBaseOf(session: Session): WorktreeBase | null {
  const worktree = session.worktree;
  return worktree && worktree.removedAt === null ? (worktree.base ?? null) : null;
}

export function ChangesScope({ session, against }: { session: Session; against: ChangesAgainst }) {
  const navigate = useNavigate();
  const base = branchBaseOf(session);
  if (!base) return null;
  const show = (next: ChangesAgainst) => {
    if (next !== against) void navigate({ to: '/sessions/$sessionId/changes', params: { sessionId: session.id }, search: next === 'base' ? { against: 'base' } : {} });
  };
  return (
    <div className="changes-scope" role="group" aria-label="Compare with">
      <button type="button" className="changes-scope-option" aria-pressed={against === 'head'} onClick={() => show('head')}>
        Not committed
      </button>
      <button type="button" className="changes-scope-option" aria-pressed={against === 'base'} onClick={() => show('base')}>
        <span>
          Whole branch <span className="changes-scope-since">since {base.ref ?? base.commit.slice(0, 7)}</span>
        </span>
      </button>
    </div>
  );
}
