// files.ts: the Files view's two reads, inside the session's directory only: one directory's
// entries, one file's text. Both go through containPath (symbolic links resolved, must stay inside).
// A link inside the listing is shown with where it leads: inside (opened like its target) or
// outside (named, marked, never opened). `.git` is not listed: it is git's, not the project's.
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  ackError,
  WORKSPACE_MAX_ENTRIES,
  WORKSPACE_MAX_FILE_BYTES,
  type Ack,
  type DirEntry,
  type WorkspaceFile,
  type WorkspaceListing,
} from '@tether/shared';
import { containPath, isInside, show } from './contain.ts';
import { readTextCapped } from './read-text.ts';

/** JSON characters a file's text may take in one answer (the event cap is 1 MiB; escapes such as
 *  `\n` and `\u0001` make the text longer than its bytes). */
const FILE_ENCODED_MAX_CHARS = 800 * 1024;
/** Names never listed. */
const HIDDEN = new Set(['.git']);

export function listWorkspaceDir(options: { root: string; path: string }): Ack<WorkspaceListing> {
  const found = containPath(options);
  if (!found.ok) return found;
  let names: string[];
  try {
    if (!statSync(found.real).isDirectory()) return ackError('bad_request', `${show(options.path)} is a file, not a directory`);
    names = readdirSync(found.real).filter((n) => !HIDDEN.has(n));
  } catch (error) {
    return ackError('forbidden', `${show(options.path)}: ${(error as NodeJS.ErrnoException).code ?? 'cannot be listed'}`);
  }
  const entries = names.map((name) => describeEntry(found.root, join(found.real, name), name));
  entries.sort((a, b) => (a.kind === 'dir') !== (b.kind === 'dir') ? (a.kind === 'dir' ? -1 : 1) : a.name.localeCompare(b.name, 'en'));
  return { ok: true, kind: 'list', path: options.path, entries: entries.slice(0, WORKSPACE_MAX_ENTRIES), total: entries.length };
}

function describeEntry(root: string, full: string, name: string): DirEntry {
  try {
    const own = lstatSync(full);
    if (!own.isSymbolicLink()) return { name, kind: kindOf(own), size: own.isFile() ? own.size : null, link: false, outside: false };
    let real: string;
    try {
      real = realpathSync(full);
    } catch {
      return { name, kind: 'other', size: null, link: true, outside: false }; // dangling
    }
    if (!isInside(root, real)) return { name, kind: 'other', size: null, link: true, outside: true };
    const target = statSync(real);
    return { name, kind: kindOf(target), size: target.isFile() ? target.size : null, link: true, outside: false };
  } catch {
    return { name, kind: 'other', size: null, link: false, outside: false };
  }
}

const kindOf = (s: { isDirectory(): boolean; isFile(): boolean }): DirEntry['kind'] => (s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other');

export function readWorkspaceFile(options: { root: string; path: string }): Ack<WorkspaceFile> {
  const found = containPath(options);
  if (!found.ok) return found;
  try {
    if (statSync(found.real).isDirectory()) return ackError('bad_request', `${show(options.path)} is a directory`);
    const read = readTextCapped({ path: found.real, maxBytes: WORKSPACE_MAX_FILE_BYTES });
    if (read.kind === 'not-file') return ackError('bad_request', `${show(options.path)} is not a regular file`);
    if (read.kind === 'binary') return { ok: true, kind: 'read', path: options.path, size: read.size, binary: true, text: null, truncated: false };
    const fitted = fitEncoded(read.text);
    return { ok: true, kind: 'read', path: options.path, size: read.size, binary: false, text: fitted, truncated: read.cut || fitted.length < read.text.length };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return ackError('forbidden', `${show(options.path)} became a symbolic link; it is not followed`);
    return ackError('forbidden', `${show(options.path)}: ${code ?? 'cannot be read'}`);
  }
}

/** Text whose JSON form fits FILE_ENCODED_MAX_CHARS, cut at a line. */
export function fitEncoded(text: string, max = FILE_ENCODED_MAX_CHARS): string {
  let fitted = text;
  while (fitted.length > 0 && JSON.stringify(fitted).length > max) {
    const half = fitted.slice(0, Math.floor(fitted.length / 2));
    const line = half.lastIndexOf('\n');
    fitted = line > 0 ? half.slice(0, line + 1) : half;
  }
  return fitted;
}
