// ignored.ts: what a worktree holds that git ignores, sorted into what removing it loses and what a
// build makes again (issue 38). git names the ignored paths (`git status --ignored=matching`: a
// folder matched as a whole is one path); this file groups them and measures them.
//
//   rebuildable  a path inside a folder named node_modules, dist, build, target, .venv, __pycache__ or
//                .next (by its name, anywhere in the tree): one line per such folder, with its size
//   lost         every other ignored path (`.env`, a session's local data): named, and its files
//                listed for the loss digest, so a file that appears after the person looked is seen
//
// Invariants: the walk never follows a link (lstat; a link counts as itself) and never leaves the
// worktree (a path from git with `..` or a leading `/` is named, not walked); it is bounded in
// entries, depth and time, and a walk cut short says "at least" (`atLeast`), never a smaller truth.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_IGNORED_SHOWN, type IgnoredEntry } from '@tether/shared';

/** Folders a build or an install makes again: losing them costs time, not work. */
export const REBUILDABLE_FOLDERS: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', 'target', '.venv', '__pycache__', '.next']);

/** How far one walk goes: entries looked at (lstat), folders deep, milliseconds. */
export type WalkLimits = { entries: number; depth: number; ms: number };

/** The lost paths are walked first and in full where they can be (their files go in the digest);
 *  the rebuildable folders (a node_modules of 100,000 files) only for a size, under a cap that keeps
 *  the daemon's answer well inside the hub's 15 s. */
export const LOSS_WALK: WalkLimits = { entries: 20_000, depth: 64, ms: 3_000 };
export const REBUILDABLE_WALK: WalkLimits = { entries: 100_000, depth: 64, ms: 3_000 };

/** What the scan found: the entries an answer lists, and all the lost paths and files (the digest's). */
export type IgnoredScan = {
  ignored: IgnoredEntry[];
  ignoredMore: number;
  rebuildable: IgnoredEntry[];
  rebuildableMore: number;
  /** Every ignored path that is lost, all of them (not only the listed ones). */
  lostPaths: string[];
  /** The files found under the lost paths (relative to the worktree), in walk order. */
  lostFiles: string[];
};

/** The rebuildable folder an ignored path is in (`pkg/node_modules/`), or null: the shortest prefix
 *  whose last part is a listed name and is a folder (a file called `build` is not one). */
export function rebuildableFolderOf(path: string): string | null {
  const parts = path.split('/');
  const isFolder = path.endsWith('/');
  for (let i = 0; i < parts.length; i += 1) {
    const folder = i < parts.length - 1 || isFolder;
    if (folder && REBUILDABLE_FOLDERS.has(parts[i]!)) return `${parts.slice(0, i + 1).join('/')}/`;
  }
  return null;
}

/** A path git gave that stays inside the worktree when joined to it. */
function inside(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.split('/').includes('..');
}

type Budget = { left: number; until: number; depth: number };
const budgetOf = (limits: WalkLimits): Budget => ({ left: limits.entries, until: Date.now() + limits.ms, depth: limits.depth });
const spent = (budget: Budget) => budget.left <= 0 || Date.now() > budget.until;
/** Entries looked at together: a folder's children are lstat-ed a batch at a time, not one by one. */
const BATCH = 64;

type Size = { bytes: number; files: number; atLeast: boolean };

/** Sizes `root/path` and everything under it within `budget`; null when the budget was spent before
 *  it began. `onFile` hears every file (anything not a folder: a link is one) found. */
async function measure(options: { root: string; path: string; budget: Budget; onFile?: (path: string) => void }): Promise<Size | null> {
  const { root, budget } = options;
  if (spent(budget)) return null;
  const size: Size = { bytes: 0, files: 0, atLeast: false };
  const count = (path: string, stat: { isDirectory(): boolean; size: number } | null, depth: number, folders: Array<[string, number]>) => {
    if (!stat) return; // gone since git listed it: nothing there to lose
    if (stat.isDirectory()) folders.push([path, depth]);
    else {
      size.bytes += stat.size;
      size.files += 1;
      options.onFile?.(path);
    }
  };
  const folders: Array<[string, number]> = [];
  // Without its trailing `/`: lstat of `link/` would follow the link.
  const top = options.path.replace(/\/+$/, '');
  budget.left -= 1;
  count(top, await lstat(join(root, top)).catch(() => null), 0, folders);
  while (folders.length > 0) {
    const [folder, depth] = folders.pop()!;
    if (depth >= budget.depth || spent(budget)) {
      size.atLeast = true;
      continue;
    }
    const names = await readdir(join(root, folder)).catch(() => null);
    if (!names) {
      size.atLeast = true; // unreadable: what is inside is unknown
      continue;
    }
    names.sort();
    for (let at = 0; at < names.length; ) {
      if (spent(budget)) {
        size.atLeast = true;
        break;
      }
      const batch = names.slice(at, at + Math.min(BATCH, budget.left));
      at += batch.length;
      budget.left -= batch.length;
      const stats = await Promise.all(batch.map((name) => lstat(join(root, folder, name)).catch(() => null)));
      batch.forEach((name, i) => count(`${folder}/${name}`, stats[i] ?? null, depth + 1, folders));
    }
  }
  return size;
}

/** The sizes of one folder's paths together; null when none was measured, "at least" when some were not. */
function sumOf(sizes: Array<Size | null>): Size | null {
  const measured = sizes.filter((size): size is Size => size !== null);
  if (measured.length === 0) return null;
  return {
    bytes: measured.reduce((sum, size) => sum + size.bytes, 0),
    files: measured.reduce((sum, size) => sum + size.files, 0),
    atLeast: measured.length < sizes.length || measured.some((size) => size.atLeast),
  };
}

const entryOf = (path: string, size: Size | null): IgnoredEntry => ({ path, bytes: size?.bytes ?? null, files: size?.files ?? null, atLeast: size?.atLeast ?? false });

/** Sorts git's ignored paths into lost and rebuildable and measures them. `measureRebuildable`
 *  false (a removal, which needs only what is lost): the rebuildable folders are named, not sized. */
export async function scanIgnored(options: { root: string; paths: string[]; measureRebuildable: boolean; limits?: { loss: WalkLimits; rebuildable: WalkLimits } }): Promise<IgnoredScan> {
  const limits = options.limits ?? { loss: LOSS_WALK, rebuildable: REBUILDABLE_WALK };
  const groups = new Map<string, string[]>();
  const lostPaths: string[] = [];
  for (const path of [...options.paths].sort()) {
    const folder = rebuildableFolderOf(path);
    if (folder === null) lostPaths.push(path);
    else groups.set(folder, [...(groups.get(folder) ?? []), path]);
  }

  const lostFiles: string[] = [];
  const lossBudget = budgetOf(limits.loss);
  const ignored: IgnoredEntry[] = [];
  for (const path of lostPaths) {
    const size = inside(path) ? await measure({ root: options.root, path, budget: lossBudget, onFile: (file) => lostFiles.push(file) }) : null;
    if (ignored.length < MAX_IGNORED_SHOWN) ignored.push(entryOf(path, size));
  }

  const rebuildBudget = budgetOf(limits.rebuildable);
  const rebuildable: IgnoredEntry[] = [];
  for (const [folder, paths] of [...groups].slice(0, MAX_IGNORED_SHOWN)) {
    if (!options.measureRebuildable) {
      rebuildable.push(entryOf(folder, null));
      continue;
    }
    // A rebuildable folder with tracked files in it comes as several ignored paths: summed.
    const sizes: Array<Size | null> = [];
    for (const path of paths) sizes.push(inside(path) ? await measure({ root: options.root, path, budget: rebuildBudget }) : null);
    rebuildable.push(entryOf(folder, sumOf(sizes)));
  }
  return { ignored, ignoredMore: lostPaths.length - ignored.length, rebuildable, rebuildableMore: groups.size - rebuildable.length, lostPaths, lostFiles };
}
