// file-edits.test.ts: a person edits a file from the phone (REST, as the web app does), end to end:
// a real `tether claude` runner (claude real, against the fake Messages API) sits in the folder; the
// hub forwards the save; the file on disk has the new text with its CRLF line endings and its mode,
// and a chat line says who edited it. A save over a file changed at the desk since it was opened is
// refused with the file's current text (the difference the phone shows). Every way out or into what
// runs code is refused and leaves the disk as it was: outside the folder, through a symbolic link, a
// hard link, `.git`, an agent's settings; a share link and another namespace cannot save at all.
// claude's next prompt names the edited file.
//
//   test ─PUT /api/sessions/:id/file─► hub ─file:write─► tether claude runner ─► fs (temp + rename)
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILE_STALE_REFUSAL } from '@tether/shared';
import { useCleanups } from '../harness/cleanups.ts';
import { startStage } from '../harness/world.ts';
import { text, userSays, when } from '../fixtures/fake-anthropic/index.ts';

const defer = useCleanups();
const IDLE_BOX = /❯[\s\u00a0]*\n─+/;
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

describe('editing a file from the phone', () => {
  it('writes it keeping CRLF and mode, refuses a stale save with the difference, and refuses every way out', async () => {
    const stage = await startStage(defer);
    const { sandbox, hub } = stage;
    stage.fake.setScript([when(userSays(/I edited this file myself.*src\/greet\.ts\) Look again/), text('saw your edit')), when(userSays(/.*/), text('plain answer'))]);
    git(sandbox.cwd, 'init', '-q');
    mkdirSync(join(sandbox.cwd, 'src'));
    const file = join(sandbox.cwd, 'src', 'greet.ts');
    writeFileSync(file, "export function greet() {\r\n  return 'hello';\r\n}\r\n");
    chmodSync(file, 0o640);
    const outside = stage.tempDir('tether-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'not for the phone\n');
    symlinkSync(join(outside, 'secret.txt'), join(sandbox.cwd, 'out.txt'));
    symlinkSync('src/greet.ts', join(sandbox.cwd, 'alias.ts'));
    linkSync(join(outside, 'secret.txt'), join(sandbox.cwd, 'hard.txt'));
    mkdirSync(join(sandbox.cwd, '.gemini'));
    writeFileSync(join(sandbox.cwd, '.gemini', 'settings.json'), '{}\n');
    writeFileSync(join(sandbox.cwd, '.mcp.json'), '{}\n');

    const runner = stage.startRunner();
    const phone = await stage.startWatch(runner.sessionId);
    await runner.waitForScreen(IDLE_BOX);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'the session idle', timeoutMs: 30_000 });
    const call = async (method: 'GET' | 'PUT', path: string, body?: unknown, token = hub.token) => {
      const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };

    // Opened: the read carries the bytes' hash, the base of a save.
    const opened = await call('GET', '/file?path=src/greet.ts');
    expect(opened.body).toMatchObject({ kind: 'read', hash: sha(file), truncated: false });
    const base = opened.body.hash as string;
    const saved = await call('PUT', '/file', { path: 'src/greet.ts', text: "export function greet() {\n  return 'hello, phone';\n}\n", base, device: 'Pixel 8' });
    expect(saved).toMatchObject({ status: 200, body: { kind: 'written', path: 'src/greet.ts', eol: 'crlf', hash: sha(file) } });
    expect(readFileSync(file, 'utf8')).toBe("export function greet() {\r\n  return 'hello, phone';\r\n}\r\n");
    expect(statSync(file).mode & 0o777).toBe(0o640);
    await phone.waitFor(() => phone.messages().some((m) => m.role === 'system' && JSON.stringify(m.content).includes('Edited src/greet.ts from the web app')) || null, { what: 'the chat line of the edit' });

    // Changed at the desk since it was opened: refused, the file's current text sent back, nothing written.
    writeFileSync(file, "export function greet() {\r\n  return 'hello, desk';\r\n}\r\n");
    const stale = await call('PUT', '/file', { path: 'src/greet.ts', text: 'mine\n', base: saved.body.hash });
    expect(stale).toEqual({ status: 409, body: { code: 'conflict', error: FILE_STALE_REFUSAL, stale: { kind: 'stale', path: 'src/greet.ts', hash: sha(file), text: "export function greet() {\r\n  return 'hello, desk';\r\n}\r\n" } } });
    expect(readFileSync(file, 'utf8')).toContain('hello, desk');
    // Saving over it anyway: the person names the current hash as the base.
    expect(await call('PUT', '/file', { path: 'src/greet.ts', text: "export function greet() {\n  return 'hello, both';\n}\n", base: stale.body.stale && (stale.body.stale as { hash: string }).hash })).toMatchObject({ status: 200 });

    // Every way out, and what runs code: refused with the reason, the disk as it was.
    const secret = readFileSync(join(outside, 'secret.txt'), 'utf8');
    const any = '0'.repeat(64);
    for (const [path, status, reason] of [
      ['../secret.txt', 400, "session's directory"],
      [`${outside}/secret.txt`, 400, "session's directory"],
      ['out.txt', 403, "leads outside the session's directory"],
      ['alias.ts', 403, 'through a symbolic link'],
      ['hard.txt', 403, 'hard link'],
      ['.git/config', 400, "'.git'"],
      ['.git/hooks/pre-commit', 400, "'.git'"],
      ['.gemini/settings.json', 403, "Gemini's settings"],
      ['.claude/settings.json', 403, "claude's settings"],
      ['.mcp.json', 403, 'MCP servers'],
    ] as const) {
      const refused = await call('PUT', '/file', { path, text: 'pwned\n', base: any });
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(status);
      expect(String(refused.body.error), path).toContain(reason);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(secret);
    expect(readFileSync(join(sandbox.cwd, '.mcp.json'), 'utf8')).toBe('{}\n');
    expect(readFileSync(join(sandbox.cwd, '.gemini', 'settings.json'), 'utf8')).toBe('{}\n');

    // A share link is no credential here; another namespace has no such session.
    const link = await fetch(`${hub.url}/api/sessions/${runner.sessionId}/share`, { method: 'POST', headers: { authorization: `Bearer ${hub.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ expiresInSec: 600 }) });
    const { token: shareToken } = (await link.json()) as { token: string };
    expect((await call('PUT', '/file', { path: 'src/greet.ts', text: 'x\n', base: sha(file) }, shareToken)).status).toBe(401);
    const stranger = await hub.createToken('stranger');
    expect(await call('PUT', '/file', { path: 'src/greet.ts', text: 'x\n', base: sha(file) }, stranger)).toEqual({ status: 404, body: { code: 'not_found', error: 'no such session' } });
    expect(readFileSync(file, 'utf8')).toContain('hello, both');

    // claude's next prompt names the file the person edited (the fake API answers only then).
    await phone.send('Look again');
    await runner.waitForScreen('saw your edit');
  }, 90_000);
});
