// worktrees.test.ts: a session in a worktree of its own, end to end with real git (issue 30). A real
// `tether daemon` starts a headless session from the phone in a new worktree of a repository that
// has a local bare remote; real claude (against the fake Messages API) edits a file there; the phone
// commits and pushes (REST, as the web app does), and the bare remote has the commit on the new
// branch with the phone's message. Archive's question: what removing would lose is named (an
// ignored .env among it; node_modules apart, sized), removal without a confirmation of exactly that
// keeps the work, machine offline keeps the worktree and archives anyway, a confirmed removal
// removes it (the branch stays). Bad names and paths change nothing on disk.
//
//   phone ─session:spawn {worktree}─► hub ─daemon:spawn─► daemon: git worktree add ─► runner ─► claude
//   phone ─worktree:inspect/remove {sessionId}─► hub (the session's recorded worktree) ─► daemon ─► git
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_HISTORY_TOOL, type Session, type WorktreeInspectAck } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { emitAck } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { spawnVia, startDaemon } from '../harness/daemon.ts';
import { startDaemonWorld } from '../harness/world.ts';
import { greetingEdit } from '../fixtures/greeting-edit.ts';

const defer = useCleanups();

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** A repository in `dir` with one commit pushed to a bare remote beside it. */
function repository(dir: string, remote: string): void {
  git(dirname(remote), 'init', '-q', '--bare', remote);
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.name', 'Desk Dev');
  git(dir, 'config', 'user.email', 'dev@example.com');
  git(dir, 'config', 'commit.gpgsign', 'false');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src', 'greet.ts'), "export function greet() {\n  return 'hello';\n}\n");
  // claude's own settings stay out of the repository (the runner may write there), as do a
  // person's secrets and installed packages.
  writeFileSync(join(dir, '.gitignore'), '.claude/\n.env\nnode_modules/\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'first');
  git(dir, 'remote', 'add', 'origin', remote);
  git(dir, 'push', '-q', '-u', 'origin', 'main');
}

describe('a session in a worktree of its own', () => {
  it('spawned from the phone in a new worktree: claude edits, the phone commits and pushes, Archive asks before removing', async () => {
    const world = await startDaemonWorld(defer);
    const { hub, sandbox, phone } = world;
    let daemon = world.daemon;
    const repo = sandbox.cwd;
    const remote = join(world.tempDir('tether-remote-'), 'remote.git');
    repository(repo, remote);
    const worktrees = `${repo}.worktrees`;
    const path = join(worktrees, 'phone', 'greeting');
    const file = join(path, 'src', 'greet.ts');
    world.fake.setScript(greetingEdit(file));
    const machineId = daemon.machineId();
    const spawn = (worktree: unknown, cwd = repo) => spawnVia(phone, { machineId, cwd, launchKind: 'headless', permissionMode: 'acceptEdits', worktree });

    // Bad input first: each refused with its reason, and nothing on disk changes.
    const disk = () => [readdirSync(dirname(repo)).sort().join(','), git(repo, 'branch', '--list'), git(repo, 'worktree', 'list'), git(repo, 'status', '--porcelain')].join('\n');
    const before = disk();
    for (const [worktree, pattern] of [
      [{ branch: '../escape' }, /branch name/],
      [{ branch: 'x;rm -rf ~' }, /branch name/],
      [{ branch: '$(touch /tmp/pwned)' }, /branch name/],
      [{ branch: '--force' }, /branch name/],
      [{ branch: 'ok', base: 'main..x' }, /branch name/],
      [{ branch: 'ok', path: '/etc' }, /path|Unrecognized/i],
    ] as const) {
      const refused = await spawn(worktree);
      expect(refused, JSON.stringify(worktree)).toMatchObject({ ok: false, code: 'bad_request' });
      expect(refused.error, JSON.stringify(worktree)).toMatch(pattern);
    }
    expect(await spawn({ branch: 'main' })).toMatchObject({ ok: false, reason: 'worktree_failed', error: expect.stringContaining('exists already') });
    const plain = world.tempDir('tether-plain-');
    expect(await spawn({ branch: 'x' }, plain)).toMatchObject({ ok: false, reason: 'worktree_failed', error: expect.stringContaining('not in a git repository') });
    expect(disk()).toBe(before);
    expect(existsSync(worktrees)).toBe(false);

    // The form's question: is the folder a repository.
    const probe = await emitAck(phone, 'worktree:probe', { machineId, cwd: repo });
    expect(probe).toMatchObject({ ok: true, repo, branch: 'main', worktrees: [{ path: repo, branch: 'main', main: true }] });
    expect(await emitAck(phone, 'worktree:probe', { machineId, cwd: plain })).toMatchObject({ ok: true, repo: null });

    const ack = await spawn({ branch: 'phone/greeting' });
    expect(ack.error).toBeUndefined();
    expect(ack.session).toMatchObject({ status: 'idle', cwd: path, worktree: { path, branch: 'phone/greeting', repo, removedAt: null, base: { ref: 'main', commit: git(repo, 'rev-parse', 'main') } } });
    const sessionId = ack.session!.id;
    expect(git(path, 'branch', '--show-current')).toBe('phone/greeting');

    const watch = await world.startWatch(sessionId);
    await watch.send('Please change the greeting');
    await watch.waitFor(() => watch.messages().find((m) => chatText(m).includes('greeting edited')), { what: 'the edit', timeoutMs: 60_000 });
    // The reply comes before the turn's end: a git write mid-turn is refused (409) without confirm.
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'the turn to end', timeoutMs: 30_000 });
    expect(git(path, 'status', '--porcelain')).toBe('M src/greet.ts');
    // The repository's own checkout is untouched.
    expect(git(repo, 'status', '--porcelain')).toBe('');

    const call = async (body: unknown) => {
      const res = await fetch(`${hub.url}/api/sessions/${sessionId}/git`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await call({ action: 'stage', paths: ['../main/src/greet.ts'] })).toMatchObject({ status: 400 });
    expect(await call({ action: 'stage', paths: ['src/greet.ts'], device: 'Pixel 8' })).toMatchObject({ status: 200 });
    const committed = await call({ action: 'commit', message: 'Friendlier greeting, from a worktree', device: 'Pixel 8' });
    expect(committed).toMatchObject({ status: 200, body: { branch: 'phone/greeting' } });
    const pushed = await call({ action: 'push', device: 'Pixel 8' });
    expect(pushed).toMatchObject({ status: 200, body: { action: 'push', state: { ahead: 0 } } });
    expect(git(remote, 'log', '-1', '--format=%s', 'phone/greeting')).toBe('Friendlier greeting, from a worktree');
    expect(git(remote, 'show', 'phone/greeting:src/greet.ts')).toContain("return 'hello, phone';");
    expect(git(remote, 'rev-parse', 'main')).toBe(git(repo, 'rev-parse', 'main'));

    // Changes: nothing left against HEAD, while the whole branch since main still shows the edit.
    // main moves on meanwhile (a commit of its own): that is not the session's work, so not shown.
    writeFileSync(join(repo, 'CHANGELOG.md'), 'main moved on\n');
    git(repo, 'add', 'CHANGELOG.md');
    git(repo, 'commit', '-q', '-m', 'main moved on');
    const changes = async (against: string) => {
      const res = await fetch(`${hub.url}/api/sessions/${sessionId}/changes?against=${against}`, { headers: { authorization: `Bearer ${hub.token}` } });
      return (await res.json()) as { files: Array<{ path: string }>; against?: { ref: string | null; commit: string } | null };
    };
    expect((await changes('head')).files).toEqual([]);
    const branchWork = await changes('base');
    expect(branchWork.files.map((f) => f.path)).toEqual(['src/greet.ts']);
    expect(branchWork.against).toEqual({ ref: 'main', commit: git(repo, 'rev-parse', 'main~1').slice(0, 12) });

    // Work the phone has not pushed: a local commit and a file not committed.
    writeFileSync(join(path, 'notes.md'), 'later\n');
    git(path, 'add', 'notes.md');
    git(path, 'commit', '-q', '-m', 'Unpushed notes');
    writeFileSync(join(path, 'draft.txt'), 'draft\n');
    // And what git ignores: a secret nothing makes again, and packages an install does.
    writeFileSync(join(path, '.env'), 'STRIPE_KEY=sk_test_local\n');
    mkdirSync(join(path, 'node_modules', 'left-pad'), { recursive: true });
    writeFileSync(join(path, 'node_modules', 'left-pad', 'index.js'), 'module.exports = (s) => s;\n');

    // A live session's worktree is never removed.
    expect(await emitAck(phone, 'worktree:remove', { sessionId, confirm: true })).toMatchObject({ ok: false, code: 'conflict', error: expect.stringContaining('end it first') });
    const stop = await emitAck<{ session: Session }>(phone, 'session:stop', { sessionId }, 30_000);
    expect(stop.ok).toBe(true);

    const inspected = await emitAck<WorktreeInspectAck>(phone, 'worktree:inspect', { sessionId });
    expect(inspected).toMatchObject({
      ok: true,
      worktree: { path },
      loss: {
        uncommitted: ['draft.txt'],
        unpushed: [expect.stringMatching(/^[0-9a-f]+ Unpushed notes$/)],
        rebuildable: [{ path: 'node_modules/', files: 1, atLeast: false }],
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    if (!inspected.ok) throw new Error(inspected.error);
    // The .env is named as loss, with its size: the one ignored path outside node_modules.
    expect(inspected.loss.ignored).toEqual([{ path: '.env', bytes: 25, files: 1, atLeast: false }]);
    // Not confirmed, or a bare yes: refused, naming what would be lost; the work stays.
    for (const confirm of [false, true]) {
      const refused = await emitAck(phone, 'worktree:remove', { sessionId, confirm });
      expect(refused).toMatchObject({ ok: false, code: 'conflict' });
      expect(String((refused as { error?: string }).error)).toMatch(/1 uncommitted file \(draft\.txt\), 1 commit no remote has \([0-9a-f]+ Unpushed notes\) and 1 ignored file or folder \(\.env\)/);
    }
    expect(existsSync(join(path, 'draft.txt'))).toBe(true);
    expect(existsSync(join(path, '.env'))).toBe(true);
    // The phone names a session, never a path: anything else is refused by the schema.
    expect(await emitAck(phone, 'worktree:remove', { sessionId, confirm: true, path: repo })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(existsSync(join(repo, 'src', 'greet.ts'))).toBe(true);

    // Machine offline: the question cannot be answered, Archive works and the worktree stays.
    await daemon.kill();
    await expect.poll(async () => (await emitAck(phone, 'worktree:inspect', { sessionId })) as { reason?: string }, { timeout: 10_000 }).toMatchObject({ ok: false, reason: 'machine_offline' });
    expect(await emitAck(phone, 'session:archive', { sessionId, archived: true })).toMatchObject({ ok: true, session: { archivedAt: expect.any(Number) } });
    expect(existsSync(join(path, 'draft.txt'))).toBe(true);

    // Back online, confirmed: removed, what was lost is named, the branch (and its commits) stay.
    daemon = await startDaemon({ hub, sandbox, home: daemon.home });
    defer(() => daemon.stop());
    const removed = await emitAck<{ session: Session; lost: unknown }>(phone, 'worktree:remove', { sessionId, confirm: inspected.loss.digest! });
    expect(removed).toMatchObject({ ok: true, lost: { uncommitted: ['draft.txt'], ignored: [{ path: '.env' }] }, session: { worktree: { path, removedAt: expect.any(Number) } } });
    expect(existsSync(path)).toBe(false);
    expect(git(repo, 'log', '-1', '--format=%s', 'phone/greeting')).toBe('Unpushed notes');
    expect(await emitAck(phone, 'worktree:remove', { sessionId, confirm: true })).toMatchObject({ ok: false, code: 'gone' });
    // The session's history says who removed it and what that lost, beside the phone's git writes.
    const detail = await fetch(`${hub.url}/api/sessions/${sessionId}`, { headers: { authorization: `Bearer ${hub.token}` } });
    const { audit } = (await detail.json()) as { audit: Array<{ toolName?: string; answeredBy: string | null; answer: { reason?: string } | null }> };
    const removal = audit.find((r) => r.toolName === GIT_HISTORY_TOOL && r.answer?.reason?.startsWith('Removed the worktree'));
    expect(removal?.answer?.reason).toBe(`Removed the worktree of phone/greeting, losing 1 uncommitted file(s), 1 unpushed commit(s) and 1 ignored file(s) or folder(s) (${path}; the branch is kept)`);
    expect(removal?.answeredBy).toBeTruthy();
  }, 180_000);
});
