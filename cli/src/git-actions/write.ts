// write.ts: the writes themselves, each one git call (or two) in the session's folder, args as an
// array, after checks that make a bad request change nothing on disk:
//   stage / unstage  only files git lists as changed in the folder (state.ts); nothing else is named
//   commit           a non-blank message, something staged, and nothing staged outside the folder
//   push             the branch's upstream as git knows it (branch.<b>.remote / .merge); none: refused
//   pull-request     `gh pr create --fill` for the branch, when gh is logged in (gh.ts)
// Credentials are the machine's: git's helpers and ssh keys, gh's login. GIT_TERMINAL_PROMPT=0
// (workspace/git.ts) makes a missing one a failure, never a prompt on the desk.
import { ackError, type Ack, type GitDone, type GitWrite } from '@tether/shared';
import { runGit, splitNul, type GitResult } from '../workspace/git.ts';
import { runGh } from './gh.ts';
import { readGitState, text, type RepoState } from './state.ts';

/** A push talks to a remote: longer than a local git call, shorter than the hub's 60 s. */
const PUSH_TIMEOUT_MS = 45_000;

export type WriteOptions = { root: string; state: RepoState; gh?: string };
type Made = { summary: string; sha?: string | null; url?: string | null };

export async function write(options: WriteOptions, request: GitWrite): Promise<Ack<GitDone>> {
  const made = await act(options, request);
  if (!made.ok) return made;
  const after = await readGitState({ root: options.root, ...(options.gh ? { gh: options.gh } : {}) });
  const state = after.git ? withoutPrefix(after) : after;
  return { ok: true, kind: 'done', action: request.action, summary: made.summary, branch: options.state.branch, sha: made.sha ?? null, url: made.url ?? null, state };
}

export function withoutPrefix(state: RepoState) {
  const { prefix: _prefix, ...rest } = state;
  return rest;
}

async function act(options: WriteOptions, request: GitWrite): Promise<Ack<Made> | ({ ok: true } & Made)> {
  const git = (args: string[], timeoutMs?: number) => runGit({ cwd: options.root, args, ...(timeoutMs ? { timeoutMs } : {}) });
  switch (request.action) {
    case 'stage':
    case 'unstage': {
      const known = new Set(options.state.files.map((f) => f.path));
      const unknown = request.paths.filter((p) => !known.has(p));
      if (unknown.length > 0) return ackError('bad_request', `${quoteList(unknown)}: not a changed file in the session's folder; nothing was staged or unstaged`);
      const args =
        request.action === 'stage' ? ['add', '-A', '--', ...request.paths] : options.state.head ? ['reset', '-q', '--', ...request.paths] : ['rm', '--cached', '-q', '--', ...request.paths];
      const done = await git(args);
      if (done.kind !== 'ok') return failed(`git ${args[0]}`, done);
      const n = request.paths.length;
      return { ok: true, summary: `${request.action === 'stage' ? 'Staged' : 'Unstaged'} ${n === 1 ? request.paths[0] : `${n} files`}` };
    }
    case 'commit':
      return commit(options, request.message);
    case 'push':
      return push(options);
    case 'pull-request': {
      if (!options.state.pullRequests) return ackError('bad_request', "gh is not installed and logged in on the session's machine (or the branch has no upstream): no pull request can be opened from here");
      const made = await runGh({ cwd: options.root, args: ['pr', 'create', '--fill', '--head', options.state.branch!], ...(options.gh ? { gh: options.gh } : {}) });
      if (made.kind !== 'ok') return ackError('conflict', `gh pr create ${made.kind === 'failed' ? `failed: ${made.stderr}` : made.kind === 'timeout' ? 'did not finish in time' : 'is not installed'}`);
      const url = made.stdout.split('\n').map((l) => l.trim()).find((l) => /^https?:\/\//.test(l)) ?? null;
      return { ok: true, summary: url ? `Opened pull request ${url}` : 'Opened a pull request', url };
    }
  }
}

async function commit(options: WriteOptions, message: string): Promise<Ack<Made>> {
  const staged = await runGit({ cwd: options.root, args: ['diff', '--cached', '--name-only', '-z'] });
  if (staged.kind !== 'ok') return failed('git diff --cached', staged);
  const names = splitNul(staged.stdout);
  if (names.length === 0) return ackError('bad_request', 'nothing is staged: stage a file first');
  // The index is the repository's, not the folder's: a file staged elsewhere (at the desk) would
  // ride along in a commit made from a session that cannot see it.
  const outside = names.filter((n) => !n.startsWith(options.state.prefix));
  if (outside.length > 0) return ackError('conflict', `${quoteList(outside)} ${outside.length === 1 ? 'is' : 'are'} staged outside the session's folder; unstage at the desk first. Nothing was committed`);
  const done = await runGit({ cwd: options.root, args: ['commit', '-q', '--no-edit', '-m', message] });
  if (done.kind !== 'ok') return failed('git commit', done);
  const sha = await runGit({ cwd: options.root, args: ['rev-parse', '--short=12', 'HEAD'] });
  const id = sha.kind === 'ok' ? text(sha.stdout).trim() : null;
  return { ok: true, summary: `Committed ${id ?? ''} on ${options.state.branch ?? 'a detached HEAD'}`.replace('  ', ' '), sha: id };
}

async function push(options: WriteOptions): Promise<Ack<Made>> {
  const { branch, upstream } = options.state;
  if (!branch) return ackError('bad_request', 'HEAD is detached (no branch): there is nothing to push to');
  if (!upstream) return ackError('bad_request', `the branch "${branch}" has no upstream: set one at the desk (git push -u <remote> ${branch}); nothing was pushed`);
  const config = async (key: string) => {
    const read = await runGit({ cwd: options.root, args: ['config', '--get', key] });
    return read.kind === 'ok' ? text(read.stdout).trim() : '';
  };
  const remote = await config(`branch.${branch}.remote`);
  const merge = await config(`branch.${branch}.merge`);
  // A remote or ref that reads as an option is not one git wrote for this branch.
  if (!remote || !merge || remote.startsWith('-') || merge.startsWith('-')) return ackError('bad_request', `the branch "${branch}" has no upstream git can push to; nothing was pushed`);
  const done = await runGit({ cwd: options.root, args: ['push', '--porcelain', remote, `HEAD:${merge}`], timeoutMs: PUSH_TIMEOUT_MS });
  if (done.kind !== 'ok') return failed('git push', done);
  const sha = await runGit({ cwd: options.root, args: ['rev-parse', '--short=12', 'HEAD'] });
  const id = sha.kind === 'ok' ? text(sha.stdout).trim() : null;
  return { ok: true, summary: `Pushed ${id ?? branch} to ${upstream}`, sha: id };
}

function failed(what: string, result: GitResult) {
  if (result.kind === 'missing') return ackError('conflict', "git is not installed on the session's machine");
  if (result.kind === 'timeout') return ackError('conflict', `${what} did not finish in time`);
  return ackError('conflict', `${what} failed: ${result.kind === 'failed' ? result.stderr || `exit ${result.code}` : 'no output'}`);
}

function quoteList(paths: string[]): string {
  const shown = paths.slice(0, 3).map((p) => JSON.stringify(p.length > 120 ? `${p.slice(0, 120)}…` : p));
  return paths.length > 3 ? `${shown.join(', ')} and ${paths.length - 3} more` : shown.join(', ');
}
