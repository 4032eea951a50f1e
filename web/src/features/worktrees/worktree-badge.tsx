// worktree-badge.tsx: the session header's branch, for a session that runs in a worktree of its own
// (issue 30): the branch it is on, and where the worktree is (or that Archive removed it).
import type { SessionWorktree } from '@tether/shared';
import { Badge } from '../../lib/ui/badge.tsx';
import { IconBranch } from '../../lib/ui/icons.tsx';

export function WorktreeBadge({ worktree }: { worktree: SessionWorktree }) {
  const where = worktree.removedAt === null ? `Runs in its own worktree at ${worktree.path}, made from ${worktree.repo}` : `Its worktree at ${worktree.path} was removed; the branch stays in ${worktree.repo}`;
  return (
    <Badge title={where} label={`Branch ${worktree.branch}. ${where}`}>
      <IconBranch size={13} /> {worktree.branch}
    </Badge>
  );
}
