// git-actions.test.ts: commit and push from the phone, end to end with real git. A real `tether
// claude` runner (claude real, against the fake Messages API) sits in a clone of a local bare
// remote; claude edits a file; the phone (REST, as the web app does) stages it, commits with its own
// message and pushes; the bare remote then has that commit with that message, and the session's
// history says who did it from which device. Bad requests change nothing on disk.
//
//   test ─POST /api/sessions/:id/git─► hub ─git:action─► tether claude runner ─► git ─► remote.git
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GIT_HISTORY_TOOL } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { startStage } from '../harness/world.ts';
import { greetingEdit } from '../fixtures/greeting-edit.ts';

const defer = useCleanups();
/** claude's input box idle again, whatever its footer says in accept-edits mode. */
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

describe('commit and push from the phone', () => {
  it("the phone's commit lands and its push reaches the bare remote with the phone's message", async () => {
    const stage = await startStage(defer);
    const { sandbox, hub } = stage;
    const remote = join(stage.tempDir('tether-remote-'), 'remote.git');
    git(sandbox.cwd, 'init', '-q', '--bare', remote);
    const file = join(sandbox.cwd, 'src', 'greet.ts');
    stage.fake.setScript(greetingEdit(file));
    git(sandbox.cwd, 'init', '-q');
    git(sandbox.cwd, 'config', 'user.name', 'Desk Dev');
    git(sandbox.cwd, 'config', 'user.email', 'dev@example.com');
    git(sandbox.cwd, 'config', 'commit.gpgsign', 'false');
    mkdirSync(join(sandbox.cwd, 'src'));
    writeFileSync(file, "export function greet() {\n  return 'hello';\n}\n");
    // claude's own settings in the sandbox stay out of the repository (the runner writes there).
    writeFileSync(join(sandbox.cwd, '.gitignore'), '.claude/\n');
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');
    git(sandbox.cwd, 'remote', 'add', 'origin', remote);
    git(sandbox.cwd, 'push', '-q', '-u', 'origin', 'main');

    const runner = stage.startRunner({ args: ['--permission-mode', 'acceptEdits'] });
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(IDLE_BOX);
    const call = async (method: 'GET' | 'POST', body?: unknown, token = hub.token) => {
      const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}/git`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    await phone.send('Please change the greeting');
    await runner.waitForScreen('greeting edited');
    await runner.waitForScreen(IDLE_BOX);
    // The screen is idle before the turn's end reaches the hub (claude's Stop hook, its transcript):
    // until then a git write is rightly refused as mid-turn (409), as it was in a rehearsal's floor pass.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'the turn to end', timeoutMs: 30_000 });

    const state = await call('GET');
    expect(state).toMatchObject({ status: 200, body: { git: true, branch: 'main', upstream: 'origin/main', ahead: 0, files: [{ path: 'src/greet.ts', staged: false, unstaged: true }] } });

    // Bad requests first: each refused with its reason, the repository and the remote untouched.
    const snapshot = () => [git(sandbox.cwd, 'rev-parse', 'HEAD'), git(sandbox.cwd, 'status', '--porcelain'), git(remote, 'rev-parse', 'main')].join('\n');
    const before = snapshot();
    for (const [body, status, reason] of [
      [{ action: 'stage', paths: ['../outside.txt'] }, 400, "session's directory"],
      [{ action: 'stage', paths: ['/etc/passwd'] }, 400, "session's directory"],
      [{ action: 'stage', paths: ['README.md'] }, 400, 'not a changed file'],
      [{ action: 'commit', message: '  ' }, 400, 'a commit needs a message'],
      [{ action: 'commit', message: 'nothing staged yet' }, 400, 'nothing is staged'],
    ] as const) {
      const res = await call('POST', body);
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)} (session ${phone.session()?.status})`).toBe(status);
      expect(String(res.body.error), JSON.stringify(body)).toContain(reason);
    }
    expect(snapshot()).toBe(before);

    const staged = await call('POST', { action: 'stage', paths: ['src/greet.ts'], device: 'Pixel 8' });
    expect(staged).toMatchObject({ status: 200, body: { action: 'stage', state: { files: [{ path: 'src/greet.ts', staged: true, unstaged: false }] } } });
    const committed = await call('POST', { action: 'commit', message: 'Friendlier greeting, from the phone', device: 'Pixel 8' });
    expect(committed).toMatchObject({ status: 200, body: { action: 'commit', branch: 'main', state: { ahead: 1, files: [] } } });
    const sha = committed.body.sha as string;
    expect(git(sandbox.cwd, 'rev-parse', '--short=12', 'HEAD')).toBe(sha);
    const pushed = await call('POST', { action: 'push', device: 'Pixel 8' });
    expect(pushed).toMatchObject({ status: 200, body: { action: 'push', sha, state: { ahead: 0 } } });
    // The bare remote has the phone's commit, its message and the edit claude made.
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toBe('Friendlier greeting, from the phone');
    expect(git(remote, 'rev-parse', '--short=12', 'main')).toBe(sha);
    expect(git(remote, 'show', 'main:src/greet.ts')).toContain("return 'hello, phone';");

    // A branch with no upstream: the push is refused and nothing reaches the remote.
    git(sandbox.cwd, 'checkout', '-q', '-b', 'topic');
    const remoteRefs = git(remote, 'for-each-ref');
    const noUpstream = await call('POST', { action: 'push' });
    expect(noUpstream.status).toBe(400);
    expect(String(noUpstream.body.error)).toContain('the branch "topic" has no upstream');
    expect(git(remote, 'for-each-ref')).toBe(remoteRefs);

    // The session's history: who (the token's label), which device, what.
    const session = await fetch(`${hub.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${hub.token}` } });
    const { audit } = (await session.json()) as { audit: Array<{ toolName?: string; device: string | null; answeredBy: string | null; answer: { reason?: string } | null }> };
    const gitRows = audit.filter((r) => r.toolName === GIT_HISTORY_TOOL);
    expect(gitRows.map((r) => [r.answer?.reason, r.device])).toEqual([
      [`Pushed ${sha} to origin/main`, 'Pixel 8'],
      [`Committed ${sha} on main`, 'Pixel 8'],
      ['Staged src/greet.ts', 'Pixel 8'],
    ]);
    expect(new Set(gitRows.map((r) => r.answeredBy)).size).toBe(1);
    expect(gitRows[0]!.answeredBy).toBeTruthy();
  });
});
