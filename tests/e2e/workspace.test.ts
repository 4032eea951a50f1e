// workspace.test.ts: a session's files through the hub's REST, from the real runner sitting in the
// directory: claude (real, against the fake API) edits a committed file; the changes show that
// edit as a hunk, the file reads back edited, and every way out of the directory is refused
// (../, an absolute path, a link that points out, a hard link to a file outside, `.git` with its
// token-bearing config), as is another namespace.
//
//   test ─GET /api/sessions/:id/{changes,files,file}─► hub ─workspace:query─► tether claude ─► git, fs
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WorkspaceChanges } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { startStage } from '../harness/world.ts';
import { greetingEdit } from '../fixtures/greeting-edit.ts';

const defer = useCleanups();
/** claude's input box idle again, whatever its footer says in accept-edits mode. */
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

describe("a session's files through the hub", () => {
  it('the diff of an Edit claude made, the file it edited, and no way out of the directory', async () => {
    const stage = await startStage(defer);
    const { sandbox, hub } = stage;
    const file = join(sandbox.cwd, 'src', 'greet.ts');
    stage.fake.setScript(greetingEdit(file));
    git(sandbox.cwd, 'init', '-q');
    mkdirSync(join(sandbox.cwd, 'src'));
    writeFileSync(file, "export function greet() {\n  return 'hello';\n}\n");
    git(sandbox.cwd, 'add', '-A');
    git(sandbox.cwd, 'commit', '-q', '-m', 'first');
    git(sandbox.cwd, 'remote', 'add', 'origin', 'https://x:ghp_E2E_TOKEN@github.com/a/b');
    const outside = stage.tempDir('tether-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'not for the phone\n');
    symlinkSync(outside, join(sandbox.cwd, 'escape'));

    const runner = stage.startRunner({ args: ['--permission-mode', 'acceptEdits'] });
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(IDLE_BOX);
    const get = async (path: string, token = hub.token) => {
      const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // Nothing changed yet; the symlink is untracked.
    const before = await get('/changes');
    expect(before.status).toBe(200);
    expect((before.body as WorkspaceChanges & { git: true }).files.map((f) => [f.path, f.status])).toEqual([['escape', 'untracked']]);
    // A second name of the file outside (same disk: both are temp dirs).
    linkSync(join(outside, 'secret.txt'), join(sandbox.cwd, 'hard.txt'));

    await phone.send('Please change the greeting');
    await runner.waitForScreen('greeting edited');

    const after = await get('/changes');
    expect(after.status).toBe(200);
    const changes = after.body as WorkspaceChanges & { git: true };
    expect(changes).toMatchObject({ kind: 'changes', git: true, branch: 'main', next: null });
    expect(changes.files.find((f) => f.path === 'src/greet.ts')).toMatchObject({ status: 'modified', additions: 1, deletions: 1, binary: false });
    const diff = changes.diffs.find((d) => d.path === 'src/greet.ts');
    expect(diff?.hunks).toEqual([{ oldStart: 1, newStart: 1, section: '', lines: [' export function greet() {', "-  return 'hello';", "+  return 'hello, phone';", ' }'] }]);
    // The untracked link is its target's name (as git stores a link), never followed.
    expect(changes.diffs.find((d) => d.path === 'escape')?.hunks[0]?.lines).toEqual([`+${outside}`, '\\ No newline at end of file']);

    const read = await get('/file?path=src/greet.ts');
    const edited = "export function greet() {\n  return 'hello, phone';\n}\n";
    expect(read).toEqual({ status: 200, body: { kind: 'read', path: 'src/greet.ts', size: Buffer.byteLength(edited), binary: false, text: edited, truncated: false, hash: createHash('sha256').update(edited).digest('hex') } });
    const listing = await get('/files');
    expect(listing.status).toBe(200);
    expect((listing.body.entries as Array<{ name: string; outside: boolean; size: number | null }>).map((e) => [e.name, e.outside, e.size])).toEqual([
      ['src', false, null],
      ['escape', true, null],
      ['hard.txt', false, null],
    ]);
    // The hard link is named (untracked) but never read, in Changes or in Files.
    expect(changes.files.find((f) => f.path === 'hard.txt')).toMatchObject({ status: 'untracked', additions: null });
    expect(JSON.stringify(changes)).not.toContain('not for the phone');
    expect(await get('/file?path=hard.txt')).toEqual({ status: 403, body: { code: 'forbidden', error: expect.stringContaining('hard link') } });
    // git's own folder is nobody's view: its config holds the remote's token.
    for (const path of ['/file?path=.git/config', '/files?path=.git', '/file?path=.GIT%2Fconfig']) {
      const refused = await get(path);
      expect(refused, path).toEqual({ status: 400, body: { code: 'bad_request', error: expect.stringContaining("'.git'") } });
    }

    // Out of the directory: refused with a reason, by the hub (../, absolute) or the runner (links).
    for (const path of ['../secret.txt', 'src/../../secret.txt', outside + '/secret.txt', '/etc/passwd']) {
      const refused = await get(`/file?path=${encodeURIComponent(path)}`);
      expect(refused.status, path).toBe(400);
      expect(String(refused.body.error), path).toMatch(/session's directory/);
    }
    for (const path of ['/file?path=escape/secret.txt', '/files?path=escape']) {
      const refused = await get(path);
      expect(refused, path).toEqual({ status: 403, body: { code: 'forbidden', error: expect.stringContaining("leads outside the session's directory") } });
    }
    // Another namespace: the session does not exist for it.
    const stranger = await hub.createToken('stranger');
    for (const path of ['/changes', '/files', '/file?path=src/greet.ts']) {
      expect(await get(path, stranger), path).toEqual({ status: 404, body: { code: 'not_found', error: 'no such session' } });
    }

    // Once the runner has gone, the hub says so.
    await runner.stop();
    await phone.waitFor(() => phone.session()?.status === 'ended' || null, { what: 'the session ended' });
    expect((await get('/changes')).status).toBe(410);
  }, 90_000);
});
