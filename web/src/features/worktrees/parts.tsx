// parts.tsx: this feature's parts as the sessions feature takes them (lib/worktree-slot.ts). The form
// field and Archive's question load when first shown (not part of the first load); the header's
// badge is a few lines and comes at once.
import { lazyPart } from '../../lib/ui/lazy-part.tsx';
import type { ArchiveWorktreeProps, WorktreeFieldProps, WorktreeParts } from '../../lib/worktree-slot.ts';
import { WorktreeBadge } from './worktree-badge.tsx';

const Field = lazyPart(() => import('./worktree-field.tsx').then((m) => m.WorktreeField));
const ArchiveDialog = lazyPart(() => import('./archive-worktree-dialog.tsx').then((m) => m.ArchiveWorktreeDialog));

export const WORKTREE_PARTS: WorktreeParts = { Field, Badge: WorktreeBadge, ArchiveDialog };
