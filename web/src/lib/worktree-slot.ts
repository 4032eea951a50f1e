// worktree-slot.ts: where the sessions feature takes its worktree parts from (issue 30): the new-
// session form's "In a new worktree" field, the header's branch badge and Archive's question about
// a session's worktree. Features do not import each other, so the signed-in shell (_authed.tsx)
// hands them over through this context; without a provider there is no worktree choice, no badge,
// and Archive asks nothing (a share link's view).
import { createContext, type ComponentType } from 'react';
import type { Session, SessionWorktree } from '@tether/shared';

export type WorktreeChoice = { branch: string } | null;

export type WorktreeFieldProps = {
  machineId: string | null;
  cwd: string;
  value: WorktreeChoice;
  disabled: boolean;
  /** The spawn's refusal of the worktree (reason worktree_failed), said at the field. */
  spawnError: string | null;
  onChange: (value: WorktreeChoice) => void;
  /** An existing worktree picked from the list: the session simply starts in that folder. */
  onPickFolder: (cwd: string) => void;
};

export type ArchiveWorktreeProps = { session: Session; onClose: () => void; onArchived: (removed: boolean) => void };

export type WorktreeParts = {
  Field: ComponentType<WorktreeFieldProps>;
  Badge: ComponentType<{ worktree: SessionWorktree }>;
  ArchiveDialog: ComponentType<ArchiveWorktreeProps>;
};

export const WorktreeSlotContext = createContext<WorktreeParts | null>(null);
