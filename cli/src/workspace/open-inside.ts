// open-inside.ts: descriptors of folders and files inside the session's directory, opened so that
// a folder on the path swapped for a symbolic link between containPath's check and the open cannot
// take a read outside (an adversarial run won that race 3 times in 400 reads), for the Files view
// and for the untracked files of the Changes view.
//
// Node and Bun have no openat(), so per platform:
// - Linux ('proc-fd'): `/proc/self/fd/<fd>/<name>` is looked up in the very folder the descriptor
//   holds (the kernel jumps to the open file, it does not re-read a path string), which makes it an
//   openat(). The checked real path is walked from the root's descriptor one name at a time, each
//   opened with O_NOFOLLOW: a name that has become a link fails with ELOOP, and nothing that
//   happens to the path afterwards matters. Listings read `/proc/self/fd/<fd>` the same way.
// - Elsewhere, macOS ('recheck'): the path is opened with O_NOFOLLOW, then walked again by lstat
//   from the root (no name on it may be a link) down to a name that must be the opened file itself
//   (same device and inode) with that one name only (nlink 1): a descriptor obtained through a
//   swapped folder is a file whose only name is outside, so it is refused. A listing is checked so
//   before and after readdir; there its names and sizes (never a file's content) could still race.
//
// Only regular files and folders are opened (lstat first: no device, socket or FIFO is opened for a
// viewer). Every descriptor is closed by the caller through `close()`.
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { containPath, refusal } from './contain.ts';
import type { AckError } from '@tether/shared';

export type OpenVia = 'proc-fd' | 'recheck';

const PROC_FD = '/proc/self/fd';
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
/** O_NONBLOCK: a FIFO swapped in after the lstat cannot hang the runner. */
const LEAF_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

let detected: OpenVia | undefined;
export function defaultOpenVia(): OpenVia {
  detected ??= process.platform === 'linux' && existsSync(`${PROC_FD}/`) ? 'proc-fd' : 'recheck';
  return detected;
}

/** An open folder inside the root. `child(name)` is a path naming `name` in it: fd-relative on
 *  Linux, the real path elsewhere (then `verify()` after using it). */
export type InsideDir = {
  ok: true;
  fd: number;
  root: string;
  parts: string[];
  via: OpenVia;
  /** The path to read the folder's own entries with. */
  self: string;
  child(name: string): string;
  /** 'recheck': throws (ESWAPPED) unless the real path still names this folder; 'proc-fd': nothing to do. */
  verify(): void;
  close(): void;
};

/** What openChild found: a regular file (open), a folder (open), or something it does not open. */
export type Opened = { ok: true; kind: 'file'; fd: number; stat: Stats; close(): void } | { ok: true; kind: 'dir'; dir: InsideDir } | { ok: true; kind: 'other' };

const failure = (code: string, message: string) => Object.assign(new Error(message), { code });

/** `afterCheck`: runs between containPath's check and the open (tests swap a folder there). */
type OpenOptions = { root: string; path: string; via?: OpenVia; afterCheck?: () => void };

/** The folder at `path` (a viewer's relative path), checked by containPath and opened safely. */
export function openDirInside(options: OpenOptions): InsideDir | AckError {
  const found = containPath(options);
  if (!found.ok) return found;
  options.afterCheck?.();
  try {
    return openDirAt({ root: found.root, parts: found.parts, via: options.via ?? defaultOpenVia() });
  } catch (error) {
    return refusal(options.path, error);
  }
}

/** The file or folder at `path`, checked by containPath and opened safely. */
export function openInside(options: OpenOptions): Opened | AckError {
  const found = containPath(options);
  if (!found.ok) return found;
  options.afterCheck?.();
  const via = options.via ?? defaultOpenVia();
  let parent: InsideDir | undefined;
  try {
    parent = openDirAt({ root: found.root, parts: found.parts.slice(0, -1), via });
    if (found.parts.length === 0) {
      const dir = parent;
      parent = undefined;
      return { ok: true, kind: 'dir', dir };
    }
    return openChild(parent, found.parts.at(-1)!);
  } catch (error) {
    return refusal(options.path, error);
  } finally {
    parent?.close();
  }
}

/** Opens `name` in `dir` (throws on failure: ELOOP if it is a link). Only a regular file or a folder
 *  is opened; a device, a socket or a FIFO is `other`. */
export function openChild(dir: InsideDir, name: string): Opened {
  const own = lstatSync(dir.child(name));
  if (own.isSymbolicLink()) throw failure('ELOOP', 'a symbolic link');
  if (own.isDirectory()) return { ok: true, kind: 'dir', dir: openDirAt({ root: dir.root, parts: [...dir.parts, name], via: dir.via, parent: dir }) };
  if (!own.isFile()) return { ok: true, kind: 'other' };
  const fd = openSync(dir.child(name), LEAF_FLAGS);
  try {
    const stat = fstatSync(fd);
    if (dir.via === 'recheck') recheck(dir.root, [...dir.parts, name], stat);
    if (!stat.isFile()) throw failure('ESWAPPED', 'no longer a regular file');
    return { ok: true, kind: 'file', fd, stat, close: () => closeSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Opens root/parts as a folder: name by name from the root's descriptor (or from `parent`'s, one
 *  name below it) on Linux; by path, then rechecked, elsewhere. Throws on any failure. */
function openDirAt(options: { root: string; parts: string[]; via: OpenVia; parent?: InsideDir }): InsideDir {
  try {
    return openDirAtOrThrow(options);
  } catch (error) {
    // containPath saw folders there: one that is now a link or a file was swapped since.
    const code = (error as NodeJS.ErrnoException).code;
    throw code === 'ELOOP' || code === 'ENOTDIR' ? failure('ESWAPPED', 'a folder on the path was replaced') : error;
  }
}

function openDirAtOrThrow(options: { root: string; parts: string[]; via: OpenVia; parent?: InsideDir }): InsideDir {
  const { root, parts, via } = options;
  let fd: number;
  if (via === 'proc-fd') {
    fd = options.parent ? openSync(options.parent.child(parts.at(-1)!), DIR_FLAGS) : openSync(root, DIR_FLAGS);
    for (const part of options.parent ? [] : parts) {
      try {
        const next = openSync(`${PROC_FD}/${fd}/${part}`, DIR_FLAGS);
        closeSync(fd);
        fd = next;
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    }
  } else {
    fd = openSync(parts.length === 0 ? root : join(root, ...parts), DIR_FLAGS);
    try {
      recheck(root, parts, fstatSync(fd));
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  const self = via === 'proc-fd' ? `${PROC_FD}/${fd}` : parts.length === 0 ? root : join(root, ...parts);
  return {
    ok: true,
    fd,
    root,
    parts,
    via,
    self,
    child: (name) => `${self}/${name}`,
    verify: () => {
      if (via === 'recheck') recheck(root, parts, fstatSync(fd));
    },
    close: () => closeSync(fd),
  };
}

/** 'recheck': root/parts is reached now without any link and names the opened `stat` itself; a
 *  file has that one name (a second could be outside: EHARDLINK). Throws ESWAPPED otherwise. */
function recheck(root: string, parts: string[], stat: Stats): void {
  let path = root;
  let now = lstatSync(path);
  for (const part of parts) {
    if (!now.isDirectory()) throw failure('ESWAPPED', 'a folder on the path changed');
    path = join(path, part);
    now = lstatSync(path);
  }
  if (now.isSymbolicLink() || now.dev !== stat.dev || now.ino !== stat.ino) throw failure('ESWAPPED', 'the path no longer names the opened file');
  if (isHardLinked(now)) throw failure('EHARDLINK', 'a hard link');
}

/** A regular file with more than one name: a hard link, which may be a file outside the session's
 *  directory under a name inside it. Git checkouts do not make them (pnpm's store does). */
export function isHardLinked(stat: Stats): boolean {
  return stat.isFile() && stat.nlink > 1;
}
