// Real git in temp dirs: a repository cloned from a bare remote; worktrees made, listed, inspected
// and removed; every refusal (a bad name, a branch that exists, a dirty base, not a repository,
// unpushed or uncommitted work or an ignored file like `.env` without a confirmation of exactly
// that loss, a file that appeared after the person looked) leaves the disk as it was; rebuildable
// folders alone are named with their size and removed without asking.
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, pushedRepo } from '../testing/git-repo.ts';
import { checkBranchName, createWorktree, inspectWorktree, listWorktrees, removeWorktree } from './worktrees.ts';
import { tempDirPerTest } from '../testing/temp-dirs.ts';

const dir = tempDirPerTest('worktrees');

function repo(): string {
  return pushedRepo({ dir: dir(), files: { 'a.txt': 'a\n', '.gitignore': '.env\nnode_modules/\ndist/\ndata/\n' } }).repo;
}

/** A fresh repository and a worktree of it on a new branch. */
async function worktreeOn(branch: string): Promise<{ app: string; tree: string }> {
  const app = repo();
  const made = await createWorktree({ repo: app, branch });
  if (!made.ok) throw new Error(made.error);
  return { app, tree: made.worktree.path };
}

describe('worktrees', () => {
  it('makes a worktree on a new branch beside the repository, and lists it', async () => {
    const app = repo();
    const made = await createWorktree({ repo: app, branch: 'feature/phone' });
    // Where it started is recorded: the branch checked out in the repository, and its commit.
    const base = { ref: 'main', commit: git(app, 'rev-parse', 'HEAD') };
    expect(made).toEqual({ ok: true, worktree: { path: join(dir(), 'app.worktrees', 'feature', 'phone'), branch: 'feature/phone', head: null, main: false }, repo: app, base });
    expect(git(join(dir(), 'app.worktrees', 'feature', 'phone'), 'branch', '--show-current')).toBe('feature/phone');
    const listed = await listWorktrees(app);
    expect(listed.ok && listed.worktrees.map((w) => [w.path, w.branch, w.main])).toEqual([
      [app, 'main', true],
      [join(dir(), 'app.worktrees', 'feature', 'phone'), 'feature/phone', false],
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
    const plain = join(dir(), 'plain');
    rmSync(plain, { recursive: true, force: true });
    Bun.spawnSync(['mkdir', plain]);
    expect(await createWorktree({ repo: plain, branch: 'topic' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('not in a git repository') });
    expect(git(app, 'branch', '--list')).toBe('* main');
    expect(existsSync(join(dir(), 'app.worktrees'))).toBe(false);
  });

  it('says exactly what removing would lose, keeps the work unless confirmed, and never removes the repository', async () => {
    const { app, tree } = await worktreeOn('topic');
    writeFileSync(join(tree, 'new.txt'), 'new\n');
    git(tree, 'add', 'new.txt');
    git(tree, 'commit', '-q', '-m', 'work on the phone');
    writeFileSync(join(tree, 'draft.txt'), 'draft\n');
    const refused = await removeWorktree({ path: tree, confirm: false });
    expect(refused).toMatchObject({ ok: false, code: 'conflict' });
    const reason = (refused as { error: string }).error;
    expect(reason).toContain('1 uncommitted file (draft.txt)');
    expect(reason).toMatch(/1 commit no remote has \([0-9a-f]+ work on the phone\)/);
    expect(readdirSync(tree).sort()).toEqual(['.git', '.gitignore', 'a.txt', 'draft.txt', 'new.txt']);
    expect(await removeWorktree({ path: app, confirm: true })).toMatchObject({ ok: false, error: expect.stringContaining('is the repository itself') });
    // A bare yes names nothing: it covers no loss. The confirmation is the digest of what was shown.
    expect(await removeWorktree({ path: tree, confirm: true })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('1 uncommitted file (draft.txt)') });
    const shown = await inspectWorktree(tree);
    if (!shown.ok) throw new Error(shown.error);
    const removed = await removeWorktree({ path: tree, confirm: shown.digest! });
    expect(removed).toMatchObject({ ok: true, removed: tree, lost: { uncommitted: ['draft.txt'] } });
    expect(existsSync(tree)).toBe(false);
    // The branch and its commit stay in the repository: only the folder went.
    expect(git(app, 'log', '-1', '--format=%s', 'topic')).toBe('work on the phone');
  });

  it('removes a clean, pushed worktree without asking, its rebuildable folders named with their size', async () => {
    const { app, tree } = await worktreeOn('clean');
    mkdirSync(join(tree, 'node_modules', 'left-pad'), { recursive: true });
    writeFileSync(join(tree, 'node_modules', 'left-pad', 'index.js'), 'x'.repeat(300));
    mkdirSync(join(tree, 'web', 'dist'), { recursive: true });
    writeFileSync(join(tree, 'web', 'dist', 'app.js'), 'y'.repeat(40));
    const inspected = await inspectWorktree(tree);
    expect(inspected).toMatchObject({
      ok: true,
      uncommitted: [],
      unpushed: [],
      ignored: [],
      ignoredMore: 0,
      rebuildable: [
        { path: 'node_modules/', bytes: 300, files: 1, atLeast: false },
        { path: 'web/dist/', bytes: 40, files: 1, atLeast: false },
      ],
    });
    expect(await removeWorktree({ path: tree, confirm: false })).toMatchObject({ ok: true, lost: { uncommitted: [], unpushed: [], ignored: [], rebuildable: [{ path: 'node_modules/' }, { path: 'web/dist/' }] } });
    expect(existsSync(tree)).toBe(false);
  });

  it('names a rename by its new path and a file turned into a link (a typechange) as uncommitted', async () => {
    const { app, tree } = await worktreeOn('moves');
    git(tree, 'mv', 'a.txt', 'b.txt');
    rmSync(join(tree, '.gitignore'));
    symlinkSync('b.txt', join(tree, '.gitignore'));
    const inspected = await inspectWorktree(tree);
    expect(inspected.ok && [...inspected.uncommitted].sort()).toEqual(['.gitignore', 'b.txt']);
    expect(await removeWorktree({ path: tree, confirm: false })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('2 uncommitted files') });
  });

  it('names an ignored .env as loss and refuses without a confirmation of it; a file that appears after the look is still kept', async () => {
    const { app, tree } = await worktreeOn('secrets');
    writeFileSync(join(tree, '.env'), 'API_KEY=local-only\n');
    mkdirSync(join(tree, 'node_modules'));
    writeFileSync(join(tree, 'node_modules', 'x.js'), 'x');
    const inspected = await inspectWorktree(tree);
    expect(inspected).toMatchObject({ ok: true, uncommitted: [], unpushed: [], ignored: [{ path: '.env', bytes: 19, files: 1, atLeast: false }], rebuildable: [{ path: 'node_modules/' }] });
    if (!inspected.ok) throw new Error(inspected.error);
    for (const confirm of [false, true] as const) {
      const refused = await removeWorktree({ path: tree, confirm });
      expect(refused, String(confirm)).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('would lose 1 ignored file or folder (.env)') });
    }
    expect(existsSync(join(tree, '.env'))).toBe(true);

    // After the person looked, the session's local data lands in an ignored folder: not covered.
    mkdirSync(join(tree, 'data'));
    writeFileSync(join(tree, 'data', 'local.db'), 'rows');
    const stale = await removeWorktree({ path: tree, confirm: inspected.digest! });
    expect(stale).toMatchObject({ ok: false, code: 'conflict', error: expect.stringMatching(/2 ignored files or folders \(\.env, data\/\).*not what was confirmed/) });
    expect(existsSync(join(tree, 'data', 'local.db'))).toBe(true);
    // A new file inside a folder already shown changes what would be lost too.
    const second = await inspectWorktree(tree);
    if (!second.ok) throw new Error(second.error);
    writeFileSync(join(tree, 'data', 'later.db'), 'more rows');
    expect(await removeWorktree({ path: tree, confirm: second.digest! })).toMatchObject({ ok: false, code: 'conflict' });
    // A rebuildable folder changing does not: it needs no confirmation.
    const third = await inspectWorktree(tree);
    if (!third.ok) throw new Error(third.error);
    writeFileSync(join(tree, 'node_modules', 'y.js'), 'y');
    const removed = await removeWorktree({ path: tree, confirm: third.digest! });
    expect(removed).toMatchObject({ ok: true, lost: { ignored: [{ path: '.env' }, { path: 'data/', files: 2 }] } });
    expect(existsSync(tree)).toBe(false);
  });
});
