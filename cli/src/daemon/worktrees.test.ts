// The daemon's worktree commands with real git in temp dirs: a spawn in a new worktree starts the
// runner there and says so in its ack; a runner that cannot start takes the fresh worktree and its
// branch with it; a bad name or a folder in no repository is refused before git runs; inspect and
// remove act only on a worktree of the named repository, never the repository or another folder, and
// remove only what the confirmation's digest covers (an ignored `.env` included).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DaemonSpawnSchema, spawnError, type DaemonSpawn } from '@tether/shared';
import { git, pushedRepo } from '../testing/git-repo.ts';
import { spawnInWorktree, worktreeCommands } from './worktrees.ts';
import { tempDirPerTest } from '../testing/temp-dirs.ts';

const dir = tempDirPerTest('daemon-worktrees');
const SESSION = '0b1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';

function repo(): string {
  return pushedRepo({ dir: dir(), files: { 'a.txt': 'a\n', '.gitignore': '.env\n' } }).repo;
}

/** What the disk holds under the temp dir, and the repository's branches: compared before and after. */
function disk(app: string): { files: string[]; branches: string } {
  return { files: readdirSync(dir(), { recursive: true }).map(String).filter((f) => !f.startsWith('remote.git') && !f.includes('.git/') && !f.endsWith('.git')).sort(), branches: git(app, 'branch', '--list') };
}

const request = (cwd: string, worktree: DaemonSpawn['worktree']) => DaemonSpawnSchema.parse({ sessionId: SESSION, cwd, launchKind: 'headless', worktree });

describe('a spawn in a new worktree', () => {
  it('makes the worktree beside the repository and starts the runner in it', async () => {
    const app = repo();
    const started: DaemonSpawn[] = [];
    const ack = await spawnInWorktree({
      request: request(app, { branch: 'fix/login' }),
      home: dir(),
      start: (r) => (started.push(r), { ok: true, pid: 4242, cwd: r.cwd, logFile: '/l' }),
    });
    const path = join(dir(), 'app.worktrees', 'fix', 'login');
    expect(ack).toEqual({ ok: true, pid: 4242, cwd: path, logFile: '/l', worktree: { path, branch: 'fix/login', repo: app, removedAt: null, base: { ref: 'main', commit: git(app, 'rev-parse', 'HEAD') } } });
    expect(started).toEqual([expect.objectContaining({ cwd: path, worktree: null, createDir: false })]);
    expect(git(path, 'branch', '--show-current')).toBe('fix/login');
    // Its upstream is the same name on the repository's remote: Push from the phone creates it there.
    expect(git(path, 'status', '--porcelain=v2', '--branch')).toContain('# branch.upstream origin/fix/login');
  });

  it('from inside a worktree: the new one goes beside the main folder, and names the repository', async () => {
    const app = repo();
    const start = (r: DaemonSpawn) => ({ ok: true as const, pid: 1, cwd: r.cwd, logFile: '/l' });
    const first = await spawnInWorktree({ request: request(app, { branch: 'one' }), home: dir(), start });
    if (!first.ok || !first.worktree) throw new Error('no worktree');
    const second = await spawnInWorktree({ request: request(first.worktree.path, { branch: 'two' }), home: dir(), start });
    expect(second).toMatchObject({ ok: true, worktree: { path: join(dir(), 'app.worktrees', 'two'), repo: app } });
    expect((await worktreeCommands({ HOME: dir() }).probe({ cwd: first.worktree.path })).ok).toBe(true);
  });

  it('takes the fresh worktree and its branch away again when the runner cannot start', async () => {
    const app = repo();
    const before = disk(app);
    const ack = await spawnInWorktree({ request: request(app, { branch: 'doomed' }), home: dir(), start: () => spawnError('bad_request', 'agent_missing', 'claude is not installed') });
    expect(ack).toMatchObject({ ok: false, reason: 'agent_missing' });
    expect(disk(app)).toEqual(before);
    expect(existsSync(join(dir(), 'app.worktrees'))).toBe(false);
  });

  it('refuses a folder in no repository, a branch that exists and a bad name (from an older hub), changing nothing', async () => {
    const app = repo();
    const plain = join(dir(), 'plain');
    mkdirSync(plain);
    const never = () => {
      throw new Error('the runner must not start');
    };
    const before = disk(app);
    expect(await spawnInWorktree({ request: request(plain, { branch: 'x' }), home: dir(), start: never })).toMatchObject({ ok: false, reason: 'worktree_failed', error: expect.stringMatching(/not in a git repository/) });
    expect(await spawnInWorktree({ request: request(app, { branch: 'main' }), home: dir(), start: never })).toMatchObject({ ok: false, reason: 'worktree_failed', error: expect.stringMatching(/exists already/) });
    // An older hub may not check the name: the daemon does, before git runs.
    const unchecked = { ...request(app, null), worktree: { branch: '../../etc;id' } };
    expect(await spawnInWorktree({ request: unchecked, home: dir(), start: never })).toMatchObject({ ok: false, reason: 'worktree_failed', error: expect.stringMatching(/branch name/) });
    expect(await spawnInWorktree({ request: request(join(dir(), 'gone'), { branch: 'x' }), home: dir(), start: never })).toMatchObject({ ok: false, reason: 'dir_missing' });
    expect(disk(app)).toEqual(before);
  });
});

describe("the daemon's worktree commands", () => {
  it('probe says whether a folder is in a repository, its branch and its worktrees', async () => {
    const app = repo();
    const commands = worktreeCommands({ HOME: dir() });
    expect(await commands.probe({ cwd: app })).toEqual({ ok: true, repo: app, branch: 'main', worktrees: [{ path: app, branch: 'main', main: true }] });
    mkdirSync(join(app, 'src'));
    expect(await commands.probe({ cwd: join(app, 'src') })).toMatchObject({ ok: true, repo: app, branch: 'main' });
    expect(await commands.probe({ cwd: dir() })).toEqual({ ok: true, repo: null, branch: null, worktrees: [] });
    expect(await commands.probe({ cwd: join(dir(), 'nope') })).toEqual({ ok: true, repo: null, branch: null, worktrees: [] });
    expect(await commands.probe({ cwd: 'relative' })).toMatchObject({ ok: false, code: 'bad_request' });
  });

  it('inspect and remove act only on a worktree of the named repository; unpushed or uncommitted work needs confirm', async () => {
    const app = repo();
    const commands = worktreeCommands({ HOME: dir() });
    const made = await spawnInWorktree({ request: request(app, { branch: 'work' }), home: dir(), start: (r) => ({ ok: true, pid: 1, cwd: r.cwd, logFile: '/l' }) });
    if (!made.ok || !made.worktree) throw new Error('no worktree');
    const path = made.worktree.path;
    // Not a worktree of it: the repository itself, another folder, a path with `..`.
    for (const other of [app, dir(), join(path, '..', '..', 'app')]) {
      expect(await commands.remove({ repo: app, path: other, confirm: true }), other).toMatchObject({ ok: false, code: 'forbidden' });
      expect(await commands.inspect({ repo: app, path: other }), other).toMatchObject({ ok: false, code: 'forbidden' });
    }
    expect(existsSync(join(app, 'a.txt'))).toBe(true);
    writeFileSync(join(path, 'b.txt'), 'b\n');
    git(path, 'add', 'b.txt');
    git(path, 'commit', '-q', '-m', 'phone work');
    writeFileSync(join(path, 'c.txt'), 'c\n');
    // An ignored file the person never saw in `git status`: named as loss too.
    writeFileSync(join(path, '.env'), 'TOKEN=x\n');
    const inspected = await commands.inspect({ repo: app, path });
    expect(inspected).toEqual({
      ok: true,
      uncommitted: ['c.txt'],
      unpushed: [expect.stringMatching(/^[0-9a-f]+ phone work$/)],
      ignored: [{ path: '.env', bytes: 8, files: 1, atLeast: false }],
      ignoredMore: 0,
      rebuildable: [],
      rebuildableMore: 0,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    if (!inspected.ok || !inspected.digest) throw new Error('no digest');
    const refused = await commands.remove({ repo: app, path, confirm: false });
    expect(refused).toMatchObject({ ok: false, code: 'conflict', error: expect.stringMatching(/1 uncommitted file \(c\.txt\), 1 commit no remote has \(.*\) and 1 ignored file or folder \(\.env\)/) });
    // A bare yes (an older hub or web) covers nothing.
    expect(await commands.remove({ repo: app, path, confirm: true })).toMatchObject({ ok: false, code: 'conflict' });
    expect(existsSync(join(path, 'c.txt'))).toBe(true);
    expect(existsSync(join(path, '.env'))).toBe(true);
    expect(await commands.remove({ repo: app, path, confirm: inspected.digest })).toMatchObject({ ok: true, removed: path, lost: { uncommitted: ['c.txt'], ignored: [{ path: '.env' }] } });
    expect(existsSync(path)).toBe(false);
  });
});
