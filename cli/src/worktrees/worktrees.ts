// worktrees.ts: a git worktree per session, on the session's machine (issue 30, item 1): create one
// on a new branch, list the ones a repository has, and before removing one say exactly what would
// be lost (uncommitted files, commits no remote has, files git ignores) and refuse unless the person
// confirmed exactly that.
//
//   create   git worktree add -b <branch> <repo>/../<repo>.worktrees/<branch> [<base>]
//   list     git worktree list --porcelain -z
//   inspect  git status --porcelain -z -uall --ignored=matching ; git log HEAD --not --remotes ;
//            the ignored paths sorted and measured (ignored.ts), the loss's digest (loss.ts)
//   remove   inspect again; anything to lose and `confirm` not its digest: refused naming it;
//            else git worktree remove
//
// Invariants: a branch name is checked before git runs (no `..`, no shell metacharacters, no leading
// `-`, git's own check-ref-format); git runs with args as an array (workspace/git.ts); a refused
// request changes nothing on disk. Used by the daemon (daemon/worktrees.ts): spawn, the form's probe, Archive.
import { existsSync, rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ackError, branchNameProblem, CommitIdSchema, type Ack, type WorktreeBase, type WorktreeConfirm, type WorktreeLoss } from '@tether/shared';
import { runGit, splitNul } from '../workspace/git.ts';
import { scanIgnored } from './ignored.ts';
import { describeLoss, lossDigest, losesWork } from './loss.ts';

/** The shared rule (worktrees.ts in shared), checked again here: the daemon may hear from an older hub. */
export function checkBranchName(name: string): string | null {
  return branchNameProblem(name);
}

/** A checkout of a large repository takes a while; the hub waits WORKTREE_SPAWN_ACK_MS for the spawn. */
const WORKTREE_ADD_TIMEOUT_MS = 25_000;

export type Worktree = { path: string; branch: string | null; head: string | null; main: boolean };

async function text(cwd: string, args: string[], timeoutMs?: number): Promise<{ ok: true; out: string } | { ok: false; error: string }> {
  const r = await runGit({ cwd, args, ...(timeoutMs ? { timeoutMs } : {}) });
  if (r.kind === 'ok') return { ok: true, out: Buffer.from(r.stdout).toString('utf8') };
  if (r.kind === 'missing') return { ok: false, error: 'git is not installed on this machine' };
  if (r.kind === 'timeout') return { ok: false, error: `git ${args[0]} did not finish in time` };
  return { ok: false, error: r.stderr || `git ${args[0]} failed` };
}

/** The repository's top folder, or a refusal that says it is not one. */
async function topOf(repo: string): Promise<Ack<{ top: string }>> {
  if (!existsSync(repo)) return ackError('not_found', `${repo}: no such folder`);
  const top = await text(repo, ['rev-parse', '--show-toplevel']);
  return top.ok ? { ok: true, top: top.out.trim() } : ackError('bad_request', `${repo} is not in a git repository`);
}

export async function listWorktrees(repo: string): Promise<Ack<{ worktrees: Worktree[] }>> {
  const top = await topOf(repo);
  if (!top.ok) return top;
  const listed = await runGit({ cwd: top.top, args: ['worktree', 'list', '--porcelain', '-z'] });
  if (listed.kind !== 'ok') return ackError('internal', 'git worktree list failed');
  const worktrees: Worktree[] = [];
  for (const field of splitNul(listed.stdout)) {
    if (field.startsWith('worktree ')) worktrees.push({ path: field.slice(9), branch: null, head: null, main: worktrees.length === 0 });
    else if (field.startsWith('HEAD ')) worktrees.at(-1)!.head = field.slice(5, 17);
    else if (field.startsWith('branch ')) worktrees.at(-1)!.branch = field.slice(7).replace(/^refs\/heads\//, '');
  }
  return { ok: true, worktrees };
}

/** A new worktree beside the repository (`<repo>.worktrees/<branch>`) on a new branch from `base`
 *  (default HEAD). Refused: not a repository, a bad name, a branch that exists, a dirty base. */
export async function createWorktree(options: { repo: string; branch: string; base?: string }): Promise<Ack<{ worktree: Worktree; repo: string; base: WorktreeBase | null }>> {
  const bad = checkBranchName(options.branch) ?? (options.base !== undefined ? checkBranchName(options.base) : null);
  if (bad) return ackError('bad_request', bad);
  const top = await topOf(options.repo);
  if (!top.ok) return top;
  const exists = await runGit({ cwd: top.top, args: ['rev-parse', '--verify', '--quiet', `refs/heads/${options.branch}`] });
  if (exists.kind === 'ok') return ackError('conflict', `the branch "${options.branch}" exists already: pick it from the list of worktrees, or name a new one`);
  // A dirty base: the new worktree starts from the last commit, so edits in the base would be left behind unseen.
  const dirty = await text(top.top, ['status', '--porcelain', '--untracked-files=no']);
  if (dirty.ok && dirty.out.trim() !== '' && options.base === undefined) {
    return ackError('conflict', `${top.top} has uncommitted changes to tracked files; the new worktree would start without them. Commit or stash them first`);
  }
  // Asked from inside a worktree of it: the new one still goes beside the repository's main folder.
  const listed = await listWorktrees(top.top);
  const root = (listed.ok ? listed.worktrees.find((w) => w.main)?.path : undefined) ?? top.top;
  const path = join(dirname(root), `${basename(root)}.worktrees`, ...options.branch.split('/'));
  if (existsSync(path)) return ackError('conflict', `${path} exists already`);
  const base = await startOf({ repo: top.top, ...(options.base ? { base: options.base } : {}) });
  const added = await text(top.top, ['worktree', 'add', '-q', '-b', options.branch, '--', path, ...(options.base ? [options.base] : [])], WORKTREE_ADD_TIMEOUT_MS);
  if (!added.ok) return ackError('conflict', `git worktree add failed: ${added.error}`);
  await trackSameName({ repo: top.top, branch: options.branch });
  return { ok: true, worktree: { path, branch: options.branch, head: null, main: false }, repo: root, base };
}

/** Where the new branch starts, recorded for the Changes view: the base asked for (or the branch
 *  checked out in the repository) and its commit now. Null when there is no commit to start from. */
async function startOf(options: { repo: string; base?: string }): Promise<WorktreeBase | null> {
  const read = await text(options.repo, ['rev-parse', '--verify', '--quiet', `${options.base ?? 'HEAD'}^{commit}`]);
  const commit = CommitIdSchema.safeParse(read.ok ? read.out.trim() : '');
  if (!commit.success) return null;
  const current = options.base === undefined ? await text(options.repo, ['symbolic-ref', '--short', '-q', 'HEAD']) : null;
  const ref = options.base ?? (current?.ok ? current.out.trim() : '');
  return { ref: ref && !checkBranchName(ref) ? ref : null, commit: commit.data };
}

/** The new branch's upstream: the same name on the remote the repository's current branch tracks
 *  (or its only remote), so that Push from the phone creates it there. None found: none set, and a
 *  push says so. The remote branch need not exist yet (git status names the upstream all the same). */
async function trackSameName(options: { repo: string; branch: string }): Promise<void> {
  const current = await text(options.repo, ['symbolic-ref', '--short', '-q', 'HEAD']);
  const tracked = current.ok ? await text(options.repo, ['config', '--get', `branch.${current.out.trim()}.remote`]) : null;
  const remotes = await text(options.repo, ['remote']);
  const only = remotes.ok ? remotes.out.split('\n').filter(Boolean) : [];
  const remote = tracked?.ok && tracked.out.trim() ? tracked.out.trim() : only.length === 1 ? only[0]! : null;
  if (!remote || remote.startsWith('-')) return;
  await runGit({ cwd: options.repo, args: ['config', `branch.${options.branch}.remote`, remote] });
  await runGit({ cwd: options.repo, args: ['config', `branch.${options.branch}.merge`, `refs/heads/${options.branch}`] });
}

/** `git status --porcelain=v1 -z` as entries: a rename or copy is followed by its old path, a field
 *  of its own that is no entry (read as one, a file named like a status line would be misnamed). */
function statusEntries(fields: string[]): Array<{ code: string; path: string }> {
  const entries: Array<{ code: string; path: string }> = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i]!;
    if (field.length < 4 || field[2] !== ' ') continue;
    const code = field.slice(0, 2);
    entries.push({ code, path: field.slice(3) });
    if (code.includes('R') || code.includes('C')) i += 1;
  }
  return entries;
}

/** What removing the worktree at `path` would lose: files not committed, commits no remote has,
 *  files git ignores (rebuildable folders apart: named and sized, not counted as loss), and the
 *  digest a confirmation repeats. `measure: 'loss'` (a removal): rebuildable folders are not sized. */
export async function inspectWorktree(path: string, options: { measure: 'all' | 'loss' } = { measure: 'all' }): Promise<Ack<WorktreeLoss>> {
  const status = await runGit({ cwd: path, args: ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignored=matching'] });
  if (status.kind !== 'ok') return ackError('bad_request', `${path} is not a git worktree`);
  // Cut short, the lists would leave out paths that removal deletes: say so, remove nothing.
  if (status.capped) return ackError('too_large', `${path} has too many changed and ignored files to list; remove it at the desk`);
  const entries = statusEntries(splitNul(status.stdout));
  const uncommitted = entries.filter((e) => e.code !== '!!').map((e) => e.path);
  const ignoredPaths = entries.filter((e) => e.code === '!!').map((e) => e.path);
  const log = await text(path, ['log', '--format=%h %s', 'HEAD', '--not', '--remotes']);
  const unpushed = log.ok ? log.out.split('\n').filter(Boolean) : [];
  const scan = await scanIgnored({ root: path, paths: ignoredPaths, measureRebuildable: options.measure === 'all' });
  const partial = scan.ignored.filter((e) => e.atLeast || e.bytes === null).map((e) => e.path);
  const digest = lossDigest({ uncommitted, unpushed, lostPaths: scan.lostPaths, lostFiles: scan.lostFiles, partial });
  return { ok: true, uncommitted, unpushed, ignored: scan.ignored, ignoredMore: scan.ignoredMore, rebuildable: scan.rebuildable, rebuildableMore: scan.rebuildableMore, digest };
}

/** Removes a worktree that is not the repository's main one. It looks again first: with anything
 *  to lose, removed only when `confirm` is the digest of exactly that loss (a bare `true` names
 *  nothing); otherwise refused, naming what would be lost, and nothing is touched. */
export async function removeWorktree(options: { path: string; confirm: WorktreeConfirm }): Promise<Ack<{ removed: string; lost: WorktreeLoss }>> {
  const list = await listWorktrees(options.path);
  if (!list.ok) return list;
  const self = list.worktrees.find((w) => w.path === options.path);
  if (!self) return ackError('bad_request', `${options.path} is not the top of a worktree`);
  if (self.main) return ackError('bad_request', `${options.path} is the repository itself, not a worktree of it: never removed`);
  const loss = await inspectWorktree(options.path, { measure: 'loss' });
  if (!loss.ok) return loss;
  const lose = losesWork(loss);
  if (lose && options.confirm !== loss.digest) {
    const why = typeof options.confirm === 'string' ? 'that is not what was confirmed (it changed since it was shown): look again, and confirm what is there now' : 'confirm to remove it anyway';
    return ackError('conflict', `removing ${options.path} would lose ${describeLoss(loss)}; ${why}`);
  }
  const main = list.worktrees.find((w) => w.main)!;
  const removed = await text(main.path, ['worktree', 'remove', ...(lose ? ['--force'] : []), '--', options.path]);
  if (!removed.ok) return ackError('conflict', `git worktree remove failed: ${removed.error}`);
  return { ok: true, removed: options.path, lost: loss };
}

/** The form's question: is `cwd` in a repository, which branch is checked out, which worktrees it has.
 *  Read only; a folder in no repository (or none at all) answers `repo: null`. */
export async function probeFolder(cwd: string): Promise<{ repo: string | null; branch: string | null; worktrees: Worktree[] }> {
  const none = { repo: null, branch: null, worktrees: [] };
  if (!existsSync(cwd)) return none;
  const top = await topOf(cwd);
  if (!top.ok) return none;
  const list = await listWorktrees(top.top);
  const worktrees = list.ok ? list.worktrees : [];
  return { repo: top.top, branch: worktrees.find((w) => w.path === top.top)?.branch ?? null, worktrees };
}

/** Whether `path` is a worktree of `repo` other than the repository itself: what a daemon checks
 *  before it inspects or removes one, whatever the hub recorded. */
export async function isWorktreeOf(options: { repo: string; path: string }): Promise<Ack<object>> {
  const list = await listWorktrees(options.repo);
  if (!list.ok) return list;
  const self = list.worktrees.find((w) => w.path === options.path);
  if (!self || self.main) return ackError('forbidden', `${options.path} is not a worktree of ${options.repo}: nothing is done`);
  return { ok: true };
}

/** Undoes a worktree made a moment ago for a session that then could not start: the folder and
 *  its branch go (nothing was done in it yet), so a refused spawn leaves nothing on disk. */
export async function discardNewWorktree(options: { repo: string; path: string; branch: string }): Promise<void> {
  await runGit({ cwd: options.repo, args: ['worktree', 'remove', '--force', '--', options.path] });
  await runGit({ cwd: options.repo, args: ['branch', '-D', '--', options.branch] });
  // The folders above it up to `<repo>.worktrees/` go when empty again (rmdir fails otherwise: kept).
  let dir = options.path;
  for (let i = 0; i < options.branch.split('/').length; i += 1) {
    dir = dirname(dir);
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}
