// contain.ts: a viewer's relative path → a real path inside the session's directory, or a refusal.
// The hub already refused `..`, absolute paths and NUL (shared WorkspacePathSchema); here the real
// path is taken (every symbolic link resolved) and must still be the directory or below it, so a
// link that points out (to ~/.ssh, to /etc) is refused like `../`.
// Invariant: nothing outside `root` is ever stat'ed for a viewer beyond the realpath that refuses it.
import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ackError, WorkspacePathSchema, type AckError } from '@tether/shared';

export type Contained = { ok: true; real: string; root: string } | AckError;

/** The session directory's real path (it may itself be reached through a link). */
export function realRoot(root: string): string {
  return realpathSync(root);
}

/** Whether `real` (already a real path) is `root` or below it. */
export function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
}

export function containPath(options: { root: string; path: string }): Contained {
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
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return ackError('not_found', `${show(options.path)}: no such file or directory`);
    if (code === 'ELOOP') return ackError('forbidden', `${show(options.path)}: a loop of symbolic links`);
    if (code === 'EACCES') return ackError('forbidden', `${show(options.path)}: permission denied`);
    return ackError('internal', `${show(options.path)}: ${code ?? 'cannot be read'}`);
  }
  if (!isInside(root, real)) return ackError('forbidden', `${show(options.path)} leads outside the session's directory (a symbolic link points out of it); it is not shown`);
  return { ok: true, real, root };
}

/** A path quoted for an error message, cut so a huge one cannot bloat the answer. */
export function show(path: string): string {
  return JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}…` : path);
}
