// parts.ts: this feature's parts as the sessions feature takes them (lib/worktree-slot.ts).
import type { WorktreeParts } from '../../lib/worktree-slot.ts';
import { ArchiveWorktreeDialog } from './archive-worktree-dialog.tsx';
import { WorktreeBadge } from './worktree-badge.tsx';
import { WorktreeField } from './worktree-field.tsx';

export const WORKTREE_PARTS: WorktreeParts = { Field: WorktreeField, Badge: WorktreeBadge, ArchiveDialog: ArchiveWorktreeDialog };
