// Real git in temp dirs: a repository with a bare remote, the session's folder a subfolder of it.
// Each write is checked on disk (index, commits, the remote's refs), and each bad request is checked
// to leave the repository exactly as it was.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GitQuerySchema, type GitWrite } from '@tether/shared';
import { git, pushedRepo } from '../testing/git-repo.ts';
import { createGitActions } from './git-actions.ts';
import { parseStatus } from './state.ts';
import { tempDirPerTest } from '../testing/temp-dirs.ts';

const dir = tempDirPerTest('git-actions');
const sessionId = randomUUID();

/** repo/ with one commit on main pushed to remote.git (its upstream); the session sits in repo/app.
 *  The person the code under test commits as is the repository's own (Dev). */
function repoWithRemote() {
  const { repo, remote } = pushedRepo({ dir: dir(), name: 'repo', files: { 'app/a.txt': 'one\n', 'top.txt': 'top\n' } });
  for (const [k, v] of [['user.name', 'Dev'], ['user.email', 'dev@example.com'], ['commit.gpgsign', 'false']]) git(repo, 'config', k!, v!);
  return { remote, repo, app: join(repo, 'app') };
}

const ask = (root: string, query: GitWrite | { action: 'state' }, gh?: string) =>
  createGitActions({ root, gh: gh ?? join(dir(), 'no-gh') }).answer(GitQuerySchema.parse({ sessionId, ...query }));

/** What a bad request must leave alone: the index, HEAD, the work tree's status. */
const snapshot = (repo: string) => [git(repo, 'rev-parse', 'HEAD'), git(repo, 'status', '--porcelain=v1'), git(repo, 'ls-files', '-s')].join('\n');

describe('git actions', () => {
  it('states the folder: changed files relative to it, staged or not, the branch and its upstream', async () => {
    const { repo, app } = repoWithRemote();
    writeFileSync(join(app, 'a.txt'), 'two\n');
    writeFileSync(join(app, 'new.txt'), 'new\n');
    writeFileSync(join(repo, 'top.txt'), 'changed outside the folder\n');
    git(app, 'add', 'new.txt');
    const state = await ask(app, { action: 'state' });
    expect(state).toMatchObject({
      ok: true,
      git: true,
      branch: 'main',
      upstream: 'origin/main',
      ahead: 0,
      behind: 0,
      pullRequests: false,
      files: [
        { path: 'a.txt', staged: false, unstaged: true },
        { path: 'new.txt', staged: true, unstaged: false },
      ],
      total: 2,
    });
    expect(await ask(dir(), { action: 'state' })).toEqual({ ok: true, kind: 'state', git: false, reason: "the session's folder is not in a git work tree" });
  });

  it('stages, unstages, commits with the message, and pushes to the upstream remote', async () => {
    const { repo, app, remote } = repoWithRemote();
    writeFileSync(join(app, 'a.txt'), 'two\n');
    writeFileSync(join(app, 'b.txt'), 'bee\n');
    expect(await ask(app, { action: 'stage', paths: ['a.txt', 'b.txt'] })).toMatchObject({ ok: true, kind: 'done', summary: 'Staged 2 files' });
    expect(git(repo, 'diff', '--cached', '--name-only')).toBe('app/a.txt\napp/b.txt');
    expect(await ask(app, { action: 'unstage', paths: ['b.txt'] })).toMatchObject({ ok: true, summary: 'Unstaged b.txt', state: { files: [{ path: 'a.txt', staged: true }, { path: 'b.txt', staged: false }] } });
    const committed = await ask(app, { action: 'commit', message: 'From the phone: a is two' });
    expect(committed).toMatchObject({ ok: true, action: 'commit', branch: 'main', state: { ahead: 1 } });
    const sha = (committed as { sha: string }).sha;
    expect(git(repo, 'rev-parse', '--short=12', 'HEAD')).toBe(sha);
    expect(git(repo, 'log', '-1', '--format=%s')).toBe('From the phone: a is two');
    expect(git(repo, 'status', '--porcelain=v1')).toBe('?? app/b.txt');
    const pushed = await ask(app, { action: 'push' });
    expect(pushed).toMatchObject({ ok: true, action: 'push', sha, summary: `Pushed ${sha} to origin/main`, state: { ahead: 0 } });
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('From the phone: a is two');
  });

  it('unstages in a repository without a commit yet', async () => {
    const repo = join(dir(), 'fresh');
    git(dir(), 'init', '-q', '-b', 'main', repo);
    writeFileSync(join(repo, 'x.txt'), 'x\n');
    expect(await ask(repo, { action: 'stage', paths: ['x.txt'] })).toMatchObject({ ok: true, state: { head: null, files: [{ path: 'x.txt', staged: true }] } });
    expect(await ask(repo, { action: 'unstage', paths: ['x.txt'] })).toMatchObject({ ok: true, state: { files: [{ path: 'x.txt', staged: false, unstaged: true }] } });
  });

  it('refuses bad requests with a clear reason and changes nothing on disk', async () => {
    const { repo, app, remote } = repoWithRemote();
    writeFileSync(join(app, 'a.txt'), 'two\n');
    writeFileSync(join(repo, 'top.txt'), 'changed outside the folder\n');
    const before = snapshot(repo);
    // A file that does not exist, one outside the folder (top.txt is the repository's, not app's),
    // an unchanged one: none is a changed file in the session's folder.
    for (const path of ['nope.txt', 'top.txt', 'sub/a.txt']) {
      expect(await ask(app, { action: 'stage', paths: [path] }), path).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('not a changed file') });
      expect(await ask(app, { action: 'unstage', paths: ['a.txt', path] }), path).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(snapshot(repo)).toBe(before);
    // Schema: `..`, absolute, blank message.
    expect(GitQuerySchema.safeParse({ sessionId, action: 'stage', paths: ['../top.txt'] }).success).toBe(false);
    expect(GitQuerySchema.safeParse({ sessionId, action: 'stage', paths: ['/etc/passwd'] }).success).toBe(false);
    expect(GitQuerySchema.safeParse({ sessionId, action: 'commit', message: '  \n ' }).error?.issues[0]?.message).toBe('a commit needs a message');
    // Nothing staged.
    expect(await ask(app, { action: 'commit', message: 'x' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('nothing is staged') });
    // Something staged outside the folder (at the desk) does not ride along.
    git(repo, 'add', 'top.txt');
    expect(await ask(app, { action: 'stage', paths: ['a.txt'] })).toMatchObject({ ok: true });
    const staged = snapshot(repo);
    expect(await ask(app, { action: 'commit', message: 'x' })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('"top.txt" is staged outside the session\'s folder') });
    expect(snapshot(repo)).toBe(staged);
    // A branch with no upstream: the push is refused and the remote keeps what it had.
    git(repo, 'reset', '-q');
    git(repo, 'checkout', '-q', '-b', 'topic');
    const remoteBefore = git(remote, 'for-each-ref');
    expect(await ask(app, { action: 'push' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('the branch "topic" has no upstream') });
    expect(git(remote, 'for-each-ref')).toBe(remoteBefore);
    // gh missing: no pull request is offered, and asking for one is refused.
    expect(await ask(app, { action: 'pull-request' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('gh is not installed') });
  });

  it('offers a pull request only when gh is logged in, and returns its URL', async () => {
    const { app } = repoWithRemote();
    // A stand-in gh: `auth status` succeeds, `pr create` prints a URL and records its arguments.
    const gh = join(dir(), 'gh');
    writeFileSync(gh, `#!/bin/sh\nif [ "$1" = auth ]; then exit 0; fi\necho "$@" > "${join(dir(), 'gh-args')}"\necho https://github.example/o/r/pull/7\n`);
    chmodSync(gh, 0o755);
    expect(await ask(app, { action: 'state' }, gh)).toMatchObject({ ok: true, pullRequests: true });
    expect(await ask(app, { action: 'pull-request' }, gh)).toMatchObject({ ok: true, url: 'https://github.example/o/r/pull/7', summary: 'Opened pull request https://github.example/o/r/pull/7' });
    expect(await Bun.file(join(dir(), 'gh-args')).text()).toBe('pr create --fill --head main\n');
  });

  it('parses renames and unmerged entries of porcelain v2, inside the prefix only', () => {
    const parts = ['# branch.oid abc', '# branch.head main', '2 R. N... 100644 100644 100644 h1 h2 R100 app/new name.txt', 'app/old.txt', 'u UU N... 1 1 1 1 h1 h2 h3 app/c.txt', '1 .M N... 1 1 1 h h other/x', '? app/u.txt'];
    expect(parseStatus(parts, 'app/').files).toEqual([
      { path: 'c.txt', staged: false, unstaged: true },
      { path: 'new name.txt', staged: true, unstaged: false },
      { path: 'u.txt', staged: false, unstaged: true },
    ]);
  });
});
