// state.ts: the index's state in the session's folder, for the phone's stage toggles and buttons:
// which changed files are staged and which have work-tree changes, the branch, its upstream and
// how far apart they are, and whether `gh` can open a pull request here. Reads only.
//
//   git rev-parse --show-prefix                           ─► the folder's place in the repository
//   git status --porcelain=v2 --branch -z -uall -- .      ─► headers (branch, upstream, ahead/behind), entries
//
// Paths come from git relative to the repository's top; they are named relative to the session's
// folder here (the prefix cut), like the Changes view's, and nothing outside the folder is listed.
import { GIT_MAX_STATE_FILES, type GitFileState, type GitState } from '@tether/shared';
import { runGit, splitNul } from '../workspace/git.ts';
import { ghReady } from './gh.ts';

export type RepoState = Extract<GitState, { git: true }> & {
  /** The folder's path from the repository's top, `sub/` or '' (git's --show-prefix). */
  prefix: string;
};

export async function readGitState(options: { root: string; gh?: string }): Promise<RepoState | Extract<GitState, { git: false }>> {
  const notGit = (reason: string) => ({ kind: 'state' as const, git: false as const, reason });
  const prefixRead = await runGit({ cwd: options.root, args: ['rev-parse', '--show-prefix'] });
  if (prefixRead.kind === 'missing') return notGit("git is not installed on the session's machine");
  if (prefixRead.kind !== 'ok') return notGit("the session's folder is not in a git work tree");
  const prefix = text(prefixRead.stdout).trim();
  const status = await runGit({ cwd: options.root, args: ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--', '.'] });
  if (status.kind !== 'ok') return notGit(status.kind === 'failed' ? `git status failed: ${status.stderr}` : 'git status did not answer in time');
  const parsed = parseStatus(splitNul(status.stdout), prefix);
  const head = parsed.oid ? parsed.oid.slice(0, 12) : null;
  return {
    kind: 'state',
    git: true,
    prefix,
    branch: parsed.branch,
    head,
    upstream: parsed.upstream,
    ahead: parsed.ahead,
    behind: parsed.behind,
    files: parsed.files.slice(0, GIT_MAX_STATE_FILES),
    total: parsed.files.length,
    pullRequests: parsed.branch !== null && parsed.upstream !== null && (await ghReady({ cwd: options.root, ...(options.gh ? { gh: options.gh } : {}) })),
  };
}

type Parsed = { oid: string | null; branch: string | null; upstream: string | null; ahead: number; behind: number; files: GitFileState[] };

/** porcelain v2 with -z: headers `# key value`, entries `1 XY …8 fields… path`, `2 XY …9 fields…
 *  path` followed by the original path as its own part, `u XY …10 fields… path`, `? path`. */
export function parseStatus(parts: string[], prefix: string): Parsed {
  const out: Parsed = { oid: null, branch: null, upstream: null, ahead: 0, behind: 0, files: [] };
  const relative = (path: string) => (path.startsWith(prefix) ? path.slice(prefix.length) : null);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith('# ')) {
      const [key, ...rest] = part.slice(2).split(' ');
      const value = rest.join(' ');
      if (key === 'branch.oid') out.oid = value === '(initial)' ? null : value;
      else if (key === 'branch.head') out.branch = value === '(detached)' ? null : value;
      else if (key === 'branch.upstream') out.upstream = value;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(value);
        if (m) [out.ahead, out.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = part[0];
    const fieldsBeforePath = kind === '1' ? 8 : kind === '2' ? 9 : kind === 'u' ? 10 : kind === '?' ? 1 : -1;
    if (fieldsBeforePath < 0) continue;
    const fields = part.split(' ');
    const path = relative(fields.slice(fieldsBeforePath).join(' '));
    if (kind === '2') i++; // the original path of a rename or copy is the next part
    if (path === null || path === '') continue;
    if (kind === '?') {
      out.files.push({ path, staged: false, unstaged: true });
      continue;
    }
    const xy = fields[1] ?? '..';
    out.files.push({ path, staged: kind !== 'u' && xy[0] !== '.', unstaged: kind === 'u' || xy[1] !== '.' });
  }
  out.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return out;
}

export function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
