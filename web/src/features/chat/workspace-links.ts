// workspace-links.ts: how a tool card opens the file it touched (Files) or that file's diff
// (Changes). The route that renders the chat says where those views are, and which paths are the
// session's (the chat knows nothing of routes or of the workspace feature); without it (a share
// link's read-only chat) paths stay plain text.
import { createContext, useContext } from 'react';

export type WorkspaceTarget = { kind: 'file' | 'diff'; path: string };
export type WorkspaceLinks = {
  /** A path claude named, as a path inside the session's directory; null when it is outside. */
  inSession(path: string): string | null;
  href(target: WorkspaceTarget): string;
  open(target: WorkspaceTarget): void;
};

export const WorkspaceLinksContext = createContext<WorkspaceLinks | null>(null);

export function useWorkspaceLinks(): WorkspaceLinks | null {
  return useContext(WorkspaceLinksContext);
}
