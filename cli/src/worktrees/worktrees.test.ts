// Real git in temp dirs: a repository cloned from a bare remote; worktrees made, listed, inspected
// and removed; every refusal (a bad name, a branch that exists, a dirty base, not a repository,
// unpushed or uncommitted work without confirm) leaves the disk as it was.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkBranchName, createWorktree, listWorktrees, removeWorktree } from './worktrees.ts';

let dir: string;

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function repo(): string {
  const remote = join(dir, 'remote.git');
  const path = join(dir, 'app');
  git(dir, 'init', '-q', '--bare', remote);
  git(dir, 'init', '-q', path);
  writeFileSync(join(path, 'a.txt'), 'a\n');
  git(path, 'add', '-A');
  git(path, 'commit', '-q', '-m', 'first');
  git(path, 'remote', 'add', 'origin', remote);
  git(path, 'push', '-q', '-u', 'origin', 'main');
  return path;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-worktrees-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('worktrees', () => {
  it('makes a worktree on a new branch beside the repository, and lists it', async () => {
    const app = repo();
    const made = await createWorktree({ repo: app, branch: 'feature/phone' });
    // Where it started is recorded: the branch checked out in the repository, and its commit.
    const base = { ref: 'main', commit: git(app, 'rev-parse', 'HEAD') };
    expect(made).toEqual({ ok: true, worktree: { path: join(dir, 'app.worktrees', 'feature', 'phone'), branch: 'feature/phone', head: null, main: false }, repo: app, base });
    expect(git(join(dir, 'app.worktrees', 'feature', 'phone'), 'branch', '--show-current')).toBe('feature/phone');
    const listed = await listWorktrees(app);
    expect(listed.ok && listed.worktrees.map((w) => [w.path, w.branch, w.main])).toEqual([
      [app, 'main', true],
      [join(dir, 'app.worktrees', 'feature', 'phone'), 'feature/phone', false],
    ]);
  });

  it('refuses bad names, an existing branch, a dirty base and a folder that is no repository, changing nothing', async () => {
    const app = repo();
    for (const name of ['../x', 'a..b', 'x;rm -rf ~', '$(id)', 'a b', '-f', '.hidden', 'x.lock', '']) {
      expect(checkBranchName(name), name).not.toBeNull();
      expect(await createWorktree({ repo: app, branch: name }), name).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(checkBranchName('feature/phone-1.2_x')).toBeNull();
    expect(await createWorktree({ repo: app, branch: 'main' })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('the branch "main" exists already') });
    writeFileSync(join(app, 'a.txt'), 'edited\n');
    expect(await createWorktree({ repo: app, branch: 'topic' })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('uncommitted changes') });
    const plain = join(dir, 'plain');
    rmSync(plain, { recursive: true, force: true });
    Bun.spawnSync(['mkdir', plain]);
    expect(await createWorktree({ repo: plain, branch: 'topic' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('not in a git repository') });
    expect(git(app, 'branch', '--list')).toBe('* main');
    expect(existsSync(join(dir, 'app.worktrees'))).toBe(false);
  });

  it('says exactly what removing would lose, keeps the work unless confirmed, and never removes the repository', async () => {
    const app = repo();
    const made = await createWorktree({ repo: app, branch: 'topic' });
    if (!made.ok) throw new Error(made.error);
    const tree = made.worktree.path;
    writeFileSync(join(tree, 'new.txt'), 'new\n');
    git(tree, 'add', 'new.txt');
    git(tree, 'commit', '-q', '-m', 'work on the phone');
    writeFileSync(join(tree, 'draft.txt'), 'draft\n');
    const refused = await removeWorktree({ path: tree, confirm: false });
    expect(refused).toMatchObject({ ok: false, code: 'conflict' });
    const reason = (refused as { error: string }).error;
    expect(reason).toContain('1 uncommitted file (draft.txt)');
    expect(reason).toMatch(/1 commit no remote has \([0-9a-f]+ work on the phone\)/);
    expect(readdirSync(tree).sort()).toEqual(['.git', 'a.txt', 'draft.txt', 'new.txt']);
    expect(await removeWorktree({ path: app, confirm: true })).toMatchObject({ ok: false, error: expect.stringContaining('is the repository itself') });
    const removed = await removeWorktree({ path: tree, confirm: true });
    expect(removed).toMatchObject({ ok: true, removed: tree, lost: { uncommitted: ['draft.txt'] } });
    expect(existsSync(tree)).toBe(false);
    // The branch and its commit stay in the repository: only the folder went.
    expect(git(app, 'log', '-1', '--format=%s', 'topic')).toBe('work on the phone');
  });

  it('removes a clean, pushed worktree without asking', async () => {
    const app = repo();
    const made = await createWorktree({ repo: app, branch: 'clean' });
    if (!made.ok) throw new Error(made.error);
    expect(await removeWorktree({ path: made.worktree.path, confirm: false })).toMatchObject({ ok: true, lost: { uncommitted: [], unpushed: [] } });
  });
});
