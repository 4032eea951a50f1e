// files.ts: the Files view's two reads, inside the session's directory only: one directory's
// entries, one file's text. Both go through open-inside.ts (containPath's check, then an open that
// no link swapped in on the way can take outside). A link inside the listing is shown with where it
// leads: inside (opened like its target) or outside (named, marked, never opened). A hard-linked
// file is listed without its size and never opened. `.git` (any case) is neither listed nor read.
import { lstatSync, readdirSync, realpathSync, type Stats } from 'node:fs';
import {
  ackError,
  isGitPart,
  WORKSPACE_MAX_ENTRIES,
  WORKSPACE_MAX_FILE_BYTES,
  type Ack,
  type DirEntry,
  type WorkspaceFile,
  type WorkspaceListing,
} from '@tether/shared';
import { HARD_LINK_REFUSAL, isInside, refusal, show } from './contain.ts';
import { isHardLinked, openInside, type InsideDir, type OpenVia } from './open-inside.ts';
import { readTextCapped } from './read-text.ts';

/** JSON characters a file's text may take in one answer (the event cap is 1 MiB; escapes such as
 *  `\n` and `\u0001` make the text longer than its bytes). */
const FILE_ENCODED_MAX_CHARS = 800 * 1024;

export function listWorkspaceDir(options: { root: string; path: string; via?: OpenVia }): Ack<WorkspaceListing> {
  const opened = openInside(options);
  if (!opened.ok) return opened;
  if (opened.kind === 'file') opened.close();
  if (opened.kind !== 'dir') return ackError('bad_request', `${show(options.path)} is a file, not a directory`);
  const dir = opened.dir;
  try {
    const names = readdirSync(dir.self).filter((n) => !isGitPart(n));
    const entries = names.map((name) => describeEntry({ dir, name, path: options.path }));
    dir.verify();
    entries.sort((a, b) => (a.kind === 'dir') !== (b.kind === 'dir') ? (a.kind === 'dir' ? -1 : 1) : a.name.localeCompare(b.name, 'en'));
    return { ok: true, kind: 'list', path: options.path, entries: entries.slice(0, WORKSPACE_MAX_ENTRIES), total: entries.length };
  } catch (error) {
    return refusal(options.path, error);
  } finally {
    dir.close();
  }
}

/** One entry, from lstat in the open folder; a link's target is opened as a viewer's path would be. */
function describeEntry(options: { dir: InsideDir; name: string; path: string }): DirEntry {
  const { dir, name } = options;
  let own: Stats;
  try {
    own = lstatSync(dir.child(name));
  } catch {
    return { name, kind: 'other', size: null, link: false, outside: false };
  }
  if (!own.isSymbolicLink()) return { name, ...describeStat(own), link: false, outside: false };
  let real: string;
  try {
    real = realpathSync(dir.child(name));
  } catch {
    return { name, kind: 'other', size: null, link: true, outside: false }; // dangling
  }
  if (!isInside(dir.root, real)) return { name, kind: 'other', size: null, link: true, outside: true };
  const target = openInside({ root: dir.root, path: options.path === '' ? name : `${options.path}/${name}`, via: dir.via });
  if (!target.ok || target.kind === 'other') return { name, kind: 'other', size: null, link: true, outside: false };
  const stat = target.kind === 'file' ? target.stat : null;
  if (target.kind === 'file') target.close();
  else target.dir.close();
  return { name, ...(stat ? describeStat(stat) : { kind: 'dir', size: null }), link: true, outside: false };
}

/** A hard-linked file shows no size: it may be a file outside, and is never opened. */
function describeStat(stat: Stats): Pick<DirEntry, 'kind' | 'size'> {
  if (stat.isDirectory()) return { kind: 'dir', size: null };
  if (stat.isFile()) return { kind: 'file', size: isHardLinked(stat) ? null : stat.size };
  return { kind: 'other', size: null };
}

export function readWorkspaceFile(options: { root: string; path: string; via?: OpenVia }): Ack<WorkspaceFile> {
  const opened = openInside(options);
  if (!opened.ok) return opened;
  if (opened.kind === 'dir') {
    opened.dir.close();
    return ackError('bad_request', `${show(options.path)} is a directory`);
  }
  if (opened.kind === 'other') return ackError('bad_request', `${show(options.path)} is not a regular file`);
  try {
    if (isHardLinked(opened.stat)) return ackError('forbidden', `${show(options.path)} ${HARD_LINK_REFUSAL}`);
    const read = readTextCapped({ fd: opened.fd, maxBytes: WORKSPACE_MAX_FILE_BYTES });
    if (read.kind === 'not-file') return ackError('bad_request', `${show(options.path)} is not a regular file`);
    if (read.kind === 'binary') return { ok: true, kind: 'read', path: options.path, size: read.size, binary: true, text: null, truncated: false, hash: null };
    const fitted = fitEncoded(read.text);
    const truncated = read.cut || fitted.length < read.text.length;
    return { ok: true, kind: 'read', path: options.path, size: read.size, binary: false, text: fitted, truncated, hash: truncated ? null : read.hash };
  } catch (error) {
    return refusal(options.path, error);
  } finally {
    opened.close();
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
