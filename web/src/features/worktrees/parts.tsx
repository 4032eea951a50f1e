// parts.tsx: this feature's parts as the sessions feature takes them (lib/worktree-slot.ts). The form
// field and Archive's question load when first shown (not part of the first load); the header's
// badge is a few lines and comes at once.
import { lazy, Suspense } from 'react';
import type { ArchiveWorktreeProps, WorktreeFieldProps, WorktreeParts } from '../../lib/worktree-slot.ts';
import { WorktreeBadge } from './worktree-badge.tsx';

const LazyField = lazy(() => import('./worktree-field.tsx').then((m) => ({ default: m.WorktreeField })));
const LazyArchiveDialog = lazy(() => import('./archive-worktree-dialog.tsx').then((m) => ({ default: m.ArchiveWorktreeDialog })));

function Field(props: WorktreeFieldProps) {
  return (
    <Suspense fallback={null}>
      <LazyField {...props} />
    </Suspense>
  );
}

function ArchiveDialog(props: ArchiveWorktreeProps) {
  return (
    <Suspense fallback={null}>
      <LazyArchiveDialog {...props} />
    </Suspense>
  );
}

export const WORKTREE_PARTS: WorktreeParts = { Field, Badge: WorktreeBadge, ArchiveDialog };
