// changes.ts: the Changes view: the session directory's working tree against HEAD, as git sees it
// here, with the untracked files (not ignored) as all-new files. One answer is one page of diffs.
//
//   git diff <base> --name-status / --numstat -z --relative   ─► the changed files (sorted by path)
//   git ls-files --others --exclude-standard -z               ─► the untracked ones
//   per file of the page: git diff <base> -- path (or the file's text) ─► diff-parse ─► FileDiff
//
// <base> is HEAD, or the empty tree in a repository without a commit. Asked for the branch's base
// (a worktree session's recorded start): the newest commit the base branch and HEAD share
// (`git merge-base`), or the recorded commit when that branch is gone; committed work on the branch
// then shows beside what is not committed yet. Only files under the session's
// directory, named relative to it (`--relative`), so every path opens in the Files view too.
// Pages end before a file that would take the page over WORKSPACE_DIFF_PAGE_CHARS (JSON characters);
// a page holds at least one file and at most FILES_PER_PAGE. Nothing here writes to the repository.
import { lstatSync, readlinkSync } from 'node:fs';
import {
  isGitPart,
  WORKSPACE_DIFF_PAGE_CHARS,
  WORKSPACE_MAX_CHANGED_FILES,
  WORKSPACE_MAX_FILE_BYTES,
  type Ack,
  type ChangedFile,
  type ChangeStatus,
  type FileDiff,
  type WorkspaceChanges,
  type WorktreeBase,
} from '@tether/shared';
import { addedFileDiff, parseFileDiff } from './diff-parse.ts';
import { runGit, splitNul } from './git.ts';
import { readTextCapped } from './read-text.ts';
import { isHardLinked, openChild, openDirInside, openInside, type OpenVia } from './open-inside.ts';

/** git calls per page stay few: a page of many small files costs one call each. */
export const FILES_PER_PAGE = 40;
/** Output of one file's `git diff` read before it counts as cut (a page shows far less). */
const FILE_DIFF_OUTPUT_CAP = 2 * 1024 * 1024;
/** An untracked file larger than this shows no line count in the list (its diff still reads it). */
const UNTRACKED_COUNT_BYTES = 256 * 1024;
const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--relative', '-M'];

const STATUS: Record<string, ChangeStatus> = { M: 'modified', A: 'added', D: 'deleted', R: 'renamed', C: 'copied', T: 'typechange', U: 'modified' };

export async function readChanges(options: { root: string; cursor: number; base?: WorktreeBase | null; via?: OpenVia }): Promise<Ack<WorkspaceChanges>> {
  const git = (args: string[], cap?: number) => runGit({ cwd: options.root, args, ...(cap ? { cap } : {}) });
  const inside = await git(['rev-parse', '--is-inside-work-tree']);
  if (inside.kind === 'missing') return { ok: true, kind: 'changes', git: false, reason: "git is not installed on the session's machine" };
  if (inside.kind !== 'ok' || text(inside.stdout).trim() !== 'true') return { ok: true, kind: 'changes', git: false, reason: "the session's directory is not in a git work tree" };

  const headRead = await git(['rev-parse', '--verify', '--quiet', '--short', 'HEAD']);
  const head = headRead.kind === 'ok' ? text(headRead.stdout).trim() || null : null;
  const branchRead = await git(['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const branch = branchRead.kind === 'ok' ? text(branchRead.stdout).trim() || null : null;
  let base = 'HEAD';
  let against: { ref: string | null; commit: string } | null = null;
  if (options.base && head) {
    const start = await branchStart(git, options.base);
    if (!start) return { ok: false, code: 'not_found', error: `the branch's base (${options.base.ref ?? 'commit'} ${options.base.commit.slice(0, 12)}) is not in this repository any more` };
    base = start;
    against = { ref: options.base.ref, commit: start.slice(0, 12) };
  } else if (!head) {
    const empty = await git(['hash-object', '-t', 'tree', '/dev/null']);
    if (empty.kind !== 'ok') return { ok: false, code: 'internal', error: 'git could not name the empty tree' };
    base = text(empty.stdout).trim();
  }

  const [names, numbers, others] = await Promise.all([
    git(['diff', base, '--name-status', '-z', ...DIFF_FLAGS]),
    git(['diff', base, '--numstat', '-z', ...DIFF_FLAGS]),
    git(['ls-files', '--others', '--exclude-standard', '-z']),
  ]);
  if (names.kind !== 'ok' || numbers.kind !== 'ok' || others.kind !== 'ok') {
    const bad = [names, numbers, others].find((r) => r.kind !== 'ok')!;
    if (bad.kind === 'failed') return { ok: false, code: 'internal', error: `git failed: ${bad.stderr || `exit ${bad.code}`}` };
    return { ok: false, code: 'internal', error: bad.kind === 'timeout' ? 'git took too long to list the changes' : 'git stopped running' };
  }
  const untrackedPaths = splitNul(others.stdout).map((path): ChangedFile => ({ path, status: 'untracked', binary: false, additions: null, deletions: null }));
  const files = [...trackedChanges(names.stdout, numbers.stdout), ...untrackedPaths].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const listed = files.slice(0, WORKSPACE_MAX_CHANGED_FILES).map((f) => (f.status === 'untracked' ? countUntracked({ root: options.root, file: f, via: options.via }) : f));

  const diffs: FileDiff[] = [];
  let chars = 0;
  let next: number | null = null;
  for (let i = options.cursor; i < listed.length; i++) {
    if (diffs.length >= FILES_PER_PAGE) {
      next = i;
      break;
    }
    const diff = await fileDiff({ root: options.root, via: options.via, base, file: listed[i]!, maxChars: WORKSPACE_DIFF_PAGE_CHARS });
    const cost = JSON.stringify(diff).length;
    if (diffs.length > 0 && chars + cost > WORKSPACE_DIFF_PAGE_CHARS) {
      next = i;
      break;
    }
    diffs.push(diff);
    chars += cost;
  }
  return { ok: true, kind: 'changes', git: true, head, against, branch, files: listed, total: files.length, cursor: options.cursor, diffs, next };
}

/** The commit the session's branch is compared with: where it and its base branch last met, or the
 *  recorded start when that branch is gone. Null when neither is a commit here. The ref is a checked
 *  branch name (it may name a remote's, `origin/main`) and the commit hex (shared schema), so
 *  neither reads as an option. */
async function branchStart(git: (args: string[]) => ReturnType<typeof runGit>, base: WorktreeBase): Promise<string | null> {
  if (base.ref) {
    const met = await git(['merge-base', base.ref, 'HEAD']);
    const commit = met.kind === 'ok' ? text(met.stdout).trim() : '';
    if (commit) return commit;
  }
  const recorded = await git(['rev-parse', '--verify', '--quiet', `${base.commit}^{commit}`]);
  return recorded.kind === 'ok' ? text(recorded.stdout).trim() || null : null;
}

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** `--name-status -z`: STATUS\0path\0 (R/C: STATUS\0old\0new\0); `--numstat -z`: A\tD\tpath\0 or
 *  A\tD\t\0old\0new\0, with `-\t-` for a binary file. */
function trackedChanges(names: Uint8Array, numbers: Uint8Array): ChangedFile[] {
  const counts = new Map<string, { additions: number | null; deletions: number | null }>();
  const n = splitNul(numbers);
  for (let i = 0; i < n.length; i++) {
    const [a, d, path] = n[i]!.split('\t');
    let name = path ?? '';
    if (name === '') {
      i += 2; // a rename: old, new follow
      name = n[i] ?? '';
    }
    counts.set(name, { additions: a === '-' ? null : Number(a), deletions: d === '-' ? null : Number(d) });
  }
  const out: ChangedFile[] = [];
  const s = splitNul(names);
  for (let i = 0; i < s.length; i++) {
    const letter = s[i]!.charAt(0);
    const status = STATUS[letter] ?? 'modified';
    let path = s[++i] ?? '';
    let oldPath: string | undefined;
    if (letter === 'R' || letter === 'C') {
      oldPath = path;
      path = s[++i] ?? '';
    }
    const count = counts.get(path) ?? { additions: null, deletions: null };
    const binary = count.additions === null && counts.has(path);
    out.push({ path, ...(oldPath !== undefined ? { oldPath } : {}), status, binary, additions: count.additions, deletions: count.deletions });
  }
  return out;
}

/** An untracked file's line count (its additions), read only when it is small. */
function countUntracked(options: { root: string; file: ChangedFile; via: OpenVia | undefined }): ChangedFile {
  const { file } = options;
  const read = readUntracked({ root: options.root, path: file.path, maxBytes: UNTRACKED_COUNT_BYTES, via: options.via });
  if (read.kind === 'binary') return { ...file, binary: true };
  if (read.kind !== 'text' || read.cut) return file;
  const lines = read.text.length === 0 ? 0 : read.text.split('\n').length - (read.text.endsWith('\n') ? 1 : 0);
  return { ...file, additions: lines, deletions: 0 };
}

/** An untracked file's text; a symbolic link is its target's name, as git would add it. Its folder
 *  is opened as the Files view opens one (open-inside.ts), and the file in that open folder, so a
 *  folder swapped for a link after git listed the file cannot lead the read outside. A hard-linked
 *  file is not read (`not-file`). */
export function readUntracked(options: { root: string; path: string; maxBytes: number; via?: OpenVia | undefined }): ReturnType<typeof readTextCapped> {
  const { path, maxBytes } = options;
  const cut = path.lastIndexOf('/');
  const folder = openDirInside({ root: options.root, path: cut < 0 ? '' : path.slice(0, cut), ...(options.via ? { via: options.via } : {}) });
  if (!folder.ok) return { kind: 'not-file' };
  const name = path.slice(cut + 1);
  try {
    if (isGitPart(name)) return { kind: 'not-file' };
    if (lstatSync(folder.child(name)).isSymbolicLink()) {
      const target = readlinkSync(folder.child(name));
      folder.verify();
      return { kind: 'text', text: target, size: Buffer.byteLength(target), cut: false, hash: null };
    }
    const opened = openChild(folder, name);
    if (opened.kind === 'dir') opened.dir.close();
    if (opened.kind !== 'file') return { kind: 'not-file' };
    try {
      return isHardLinked(opened.stat) ? { kind: 'not-file' } : readTextCapped({ fd: opened.fd, maxBytes });
    } finally {
      opened.close();
    }
  } catch {
    return { kind: 'not-file' };
  } finally {
    folder.close();
  }
}

/** Whether the work tree's `path` is a regular file with more than one name. */
function isHardLinkedFile(options: { root: string; path: string; via: OpenVia | undefined }): boolean {
  const opened = openInside({ root: options.root, path: options.path, ...(options.via ? { via: options.via } : {}) });
  if (!opened.ok) return false;
  if (opened.kind === 'dir') opened.dir.close();
  if (opened.kind !== 'file') return false;
  opened.close();
  return isHardLinked(opened.stat);
}

async function fileDiff(options: { root: string; via: OpenVia | undefined; base: string; file: ChangedFile; maxChars: number }): Promise<FileDiff> {
  const { file } = options;
  if (file.status === 'untracked') {
    const read = readUntracked({ root: options.root, path: file.path, maxBytes: WORKSPACE_MAX_FILE_BYTES, via: options.via });
    if (read.kind !== 'text') return { path: file.path, binary: read.kind === 'binary', hunks: [], lineCount: 0, truncated: false };
    return addedFileDiff({ path: file.path, text: read.text, maxChars: options.maxChars, cut: read.cut });
  }
  if (file.binary) return { path: file.path, binary: true, hunks: [], lineCount: 0, truncated: false };
  // git would diff a hard link's text: it may be a file outside under a tracked name. Named, not shown.
  if (file.status !== 'deleted' && isHardLinkedFile({ root: options.root, path: file.path, via: options.via })) return { path: file.path, binary: false, hunks: [], lineCount: 0, truncated: false };
  const paths = file.oldPath !== undefined ? [file.oldPath, file.path] : [file.path];
  const out = await runGit({ cwd: options.root, args: ['diff', options.base, ...DIFF_FLAGS, '--', ...paths], cap: FILE_DIFF_OUTPUT_CAP });
  if (out.kind !== 'ok') return { path: file.path, binary: false, hunks: [], lineCount: 0, truncated: true };
  return parseFileDiff({ path: file.path, text: text(out.stdout), maxChars: options.maxChars, cut: out.capped });
}
