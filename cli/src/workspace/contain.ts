// contain.ts: a viewer's relative path → a real path inside the session's directory, or a refusal.
// The hub already refused `..`, absolute paths, NUL, over-long names and `.git` (shared
// WorkspacePathSchema); here the real path is taken (every symbolic link resolved) and must still
// be the directory or below it, and not in a `.git`, so a link that points out (to ~/.ssh, to /etc)
// or into `.git` is refused like `../`. This is the check; open-inside.ts opens what it names
// without trusting that the path still leads there.
// Invariant: nothing outside `root` is ever stat'ed for a viewer beyond the realpath that refuses it.
import { realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ackError, isGitPart, isWorkspacePathTooLong, WORKSPACE_MAX_NAME_BYTES, WorkspacePathSchema, type AckError } from '@tether/shared';

/** `parts`: the real path's names below `root` (none is a link when checked; [] for the root). */
export type Contained = { ok: true; real: string; root: string; parts: string[] } | AckError;

/** The session directory's real path (it may itself be reached through a link). */
export function realRoot(root: string): string {
  return realpathSync(root);
}

/** Whether `real` (already a real path) is `root` or below it. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

export const GIT_REFUSAL = "is in '.git', git's own folder (its config may hold a remote URL with a token): it is not shown";

export const HARD_LINK_REFUSAL = "is a hard link (a second name of a file that may be outside the session's directory); it is not opened";

export function containPath(options: { root: string; path: string }): Contained {
  if (isWorkspacePathTooLong(options.path)) return ackError('bad_request', `${show(options.path)}: a name in a path is at most ${WORKSPACE_MAX_NAME_BYTES} bytes (UTF-8)`);
  const checked = WorkspacePathSchema.safeParse(options.path);
  if (!checked.success) return ackError('forbidden', `${show(options.path)}: ${checked.error.issues[0]?.message ?? 'not a path inside the session'}`);
  let root: string;
  try {
    root = realRoot(options.root);
  } catch {
    return ackError('gone', "the session's directory is gone");
  }
  let real: string;
  try {
    real = realpathSync(options.path === '' ? root : join(root, ...options.path.split('/')));
  } catch (error) {
    return refusal(options.path, error);
  }
  if (!isInside(root, real)) return ackError('forbidden', `${show(options.path)} leads outside the session's directory (a symbolic link points out of it); it is not shown`);
  const rel = relative(root, real);
  const parts = rel === '' ? [] : rel.split(sep);
  if (parts.some(isGitPart)) return ackError('forbidden', `${show(options.path)} ${GIT_REFUSAL}`);
  return { ok: true, real, root, parts };
}

/** A failed filesystem call on a viewer's path, as the answer the viewer gets. */
export function refusal(path: string, error: unknown): AckError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return ackError('not_found', `${show(path)}: no such file or directory`);
  if (code === 'ELOOP' || code === 'ESWAPPED') return ackError('forbidden', `${show(path)} changed while it was read (a folder on its path was replaced, by a symbolic link or otherwise); it is not followed`);
  if (code === 'EHARDLINK') return ackError('forbidden', `${show(path)} ${HARD_LINK_REFUSAL}`);
  if (code === 'EACCES' || code === 'EPERM') return ackError('forbidden', `${show(path)}: permission denied`);
  if (code === 'ENAMETOOLONG') return ackError('bad_request', `${show(path)}: the name is too long for this disk`);
  return ackError('internal', `${show(path)}: ${code ?? 'cannot be read'}`);
}

/** A path quoted for an error message, cut so a huge one cannot bloat the answer. */
export function show(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}
