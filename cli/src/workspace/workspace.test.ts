// workspace.test.ts: the runner's reads of a session directory against real git repositories in
// temp dirs: changes (modified, added, deleted, renamed, untracked, binary, no commit yet, paging,
// cuts), listings and files, and every way out of the directory refused.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_MAX_DIFF_LINES, WorkspaceAnswerSchema, type Ack, type WorkspaceAnswer, type WorkspaceChanges } from '@tether/shared';
import { createWorkspaceReader } from './workspace.ts';
import { FILES_PER_PAGE } from './changes.ts';
import { tempDirs } from '../testing/temp-dirs.ts';

const SESSION = '11111111-2222-4333-8444-555555555555';
const tempDir = tempDirs('ws');

function git(cwd: string, ...args: string[]): void {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.toString()}`);
}

/** A repository with one commit: src/app.ts (10 lines), README.md, old-name.txt, logo.bin. */
function repo(): string {
  const root = tempDir();
  git(root, 'init', '-q');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'app.ts'), Array.from({ length: 10 }, (_, i) => `export const line${i + 1} = ${i + 1};\n`).join(''));
  writeFileSync(join(root, 'README.md'), '# demo\n');
  writeFileSync(join(root, 'old-name.txt'), 'a file that will move\nwith two lines\n');
  writeFileSync(join(root, 'logo.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'first');
  return root;
}

async function ask(root: string, query: { kind: 'changes'; cursor?: number } | { kind: 'list' | 'read'; path: string }): Promise<Ack<WorkspaceAnswer>> {
  const answer = await createWorkspaceReader({ root }).answer({ sessionId: SESSION, cursor: 0, ...query } as never);
  // Every answer is what the hub will accept.
  if (answer.ok) {
    const { ok: _ok, ...rest } = answer;
    expect(WorkspaceAnswerSchema.safeParse(rest).success).toBe(true);
  }
  return answer;
}

async function changes(root: string, cursor = 0): Promise<Extract<WorkspaceChanges, { git: true }>> {
  const answer = await ask(root, { kind: 'changes', cursor });
  if (!answer.ok || answer.kind !== 'changes' || !answer.git) throw new Error(`not changes: ${JSON.stringify(answer)}`);
  return answer;
}

function sha(cwd: string, rev: string): string {
  return Bun.spawnSync(['git', 'rev-parse', rev], { cwd, stdout: 'pipe' }).stdout.toString().trim();
}

describe("changes against the branch's base", () => {
  /** main: first; feature (checked out): first + a commit to src/app.ts, README.md edited and not
   *  committed; main then moved on with a commit of its own (other.txt). */
  function branched(): { root: string; start: string } {
    const root = repo();
    const start = sha(root, 'HEAD');
    git(root, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(root, 'src', 'app.ts'), 'export const rewritten = true;\n');
    git(root, 'commit', '-q', '-am', 'feature work');
    git(root, 'checkout', '-q', 'main');
    writeFileSync(join(root, 'other.txt'), 'main moved on\n');
    git(root, 'add', 'other.txt');
    git(root, 'commit', '-q', '-m', 'main work');
    git(root, 'checkout', '-q', 'feature');
    writeFileSync(join(root, 'README.md'), '# demo, edited\n');
    return { root, start };
  }
  const asked = async (root: string, base: { ref: string | null; commit: string }) =>
    createWorkspaceReader({ root }).answer({ kind: 'changes', sessionId: SESSION, cursor: 0, base });

  it("shows the branch's commits and what is not committed, not what its base did since", async () => {
    const { root, start } = branched();
    const answer = await asked(root, { ref: 'main', commit: start });
    if (!answer.ok || answer.kind !== 'changes' || !answer.git) throw new Error(JSON.stringify(answer));
    const { ok: _ok, ...wire } = answer;
    expect(WorkspaceAnswerSchema.safeParse(wire).success).toBe(true);
    expect(answer.files.map((f) => f.path)).toEqual(['README.md', 'src/app.ts']);
    expect(answer.against).toEqual({ ref: 'main', commit: start.slice(0, 12) });
    expect(answer.diffs.find((d) => d.path === 'src/app.ts')?.hunks[0]?.lines).toContain('+export const rewritten = true;');
    // Against HEAD the committed work is gone from the list: only the edit not committed yet.
    expect((await changes(root)).files.map((f) => f.path)).toEqual(['README.md']);
    expect((await changes(root)).against ?? null).toBeNull();
  });

  it('falls back to the recorded commit when the base branch is gone, and says when that is gone too', async () => {
    const { root, start } = branched();
    git(root, 'branch', '-q', '-D', 'main');
    const fallback = await asked(root, { ref: 'main', commit: start });
    expect(fallback).toMatchObject({ ok: true, git: true, against: { ref: 'main', commit: start.slice(0, 12) } });
    if (fallback.ok && fallback.kind === 'changes' && fallback.git) expect(fallback.files.map((f) => f.path)).toEqual(['README.md', 'src/app.ts']);
    const lost = await asked(root, { ref: null, commit: 'deadbeefdeadbeef' });
    expect(lost).toMatchObject({ ok: false, code: 'not_found', error: expect.stringContaining('not in this repository') });
  });
});

describe('changes against HEAD', () => {
  it('names modified, added, deleted, renamed, untracked and binary files, with hunks and counts', async () => {
    const root = repo();
    writeFileSync(join(root, 'src', 'app.ts'), Array.from({ length: 10 }, (_, i) => (i === 4 ? 'export const line5 = 55;\n' : `export const line${i + 1} = ${i + 1};\n`)).join(''));
    writeFileSync(join(root, 'src', 'added.ts'), 'export const added = true;\n');
    git(root, 'add', 'src/added.ts');
    rmSync(join(root, 'README.md'));
    git(root, 'mv', 'old-name.txt', 'new-name.txt');
    writeFileSync(join(root, 'notes.txt'), 'untracked one\nuntracked two\n');
    writeFileSync(join(root, 'logo.bin'), Buffer.from([0, 9, 9, 9, 0, 255]));
    writeFileSync(join(root, '.gitignore'), 'ignored.log\n');
    writeFileSync(join(root, 'ignored.log'), 'never shown\n');

    const c = await changes(root);
    expect(c.head).toMatch(/^[0-9a-f]{4,}$/);
    expect(c.branch).toBe('main');
    const byPath = Object.fromEntries(c.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(['.gitignore', 'README.md', 'logo.bin', 'new-name.txt', 'notes.txt', 'src/added.ts', 'src/app.ts']);
    expect(byPath['src/app.ts']).toMatchObject({ status: 'modified', additions: 1, deletions: 1, binary: false });
    expect(byPath['src/added.ts']).toMatchObject({ status: 'added', additions: 1, deletions: 0 });
    expect(byPath['README.md']).toMatchObject({ status: 'deleted', additions: 0, deletions: 1 });
    expect(byPath['new-name.txt']).toMatchObject({ status: 'renamed', oldPath: 'old-name.txt' });
    expect(byPath['notes.txt']).toMatchObject({ status: 'untracked', additions: 2, deletions: 0 });
    expect(byPath['logo.bin']).toMatchObject({ status: 'modified', binary: true, additions: null });
    expect(c.total).toBe(7);
    expect(c.next).toBeNull();

    const diff = Object.fromEntries(c.diffs.map((d) => [d.path, d]));
    // Three lines of context each side; the change is at line 5 of both.
    expect(diff['src/app.ts']!.hunks).toEqual([
      {
        oldStart: 2,
        newStart: 2,
        // git's own function-name guess: the last line before the hunk that starts at column 0.
        section: 'export const line1 = 1;',
        lines: [
          ' export const line2 = 2;',
          ' export const line3 = 3;',
          ' export const line4 = 4;',
          '-export const line5 = 5;',
          '+export const line5 = 55;',
          ' export const line6 = 6;',
          ' export const line7 = 7;',
          ' export const line8 = 8;',
        ],
      },
    ]);
    expect(diff['logo.bin']).toMatchObject({ binary: true, hunks: [] });
    expect(diff['notes.txt']!.hunks).toEqual([{ oldStart: 0, newStart: 1, section: '', lines: ['+untracked one', '+untracked two'] }]);
    expect(diff['README.md']!.hunks[0]!.lines).toEqual(['-# demo']);
    // A pure rename has no hunk.
    expect(diff['new-name.txt']!.hunks).toEqual([]);
  });

  it('lists only what is under the session directory, named relative to it', async () => {
    const root = repo();
    writeFileSync(join(root, 'README.md'), '# changed outside src\n');
    writeFileSync(join(root, 'src', 'app.ts'), 'export {};\n');
    writeFileSync(join(root, 'src', 'new.ts'), 'new\n');
    const c = await changes(join(root, 'src'));
    expect(c.files.map((f) => f.path)).toEqual(['app.ts', 'new.ts']);
  });

  it('a repository without a commit: everything is new, head is null', async () => {
    const root = tempDir();
    git(root, 'init', '-q');
    writeFileSync(join(root, 'staged.txt'), 'one\n');
    git(root, 'add', 'staged.txt');
    writeFileSync(join(root, 'loose.txt'), 'two\n');
    const c = await changes(root);
    expect(c.head).toBeNull();
    expect(c.files.map((f) => [f.path, f.status])).toEqual([
      ['loose.txt', 'untracked'],
      ['staged.txt', 'added'],
    ]);
    expect(c.diffs.find((d) => d.path === 'staged.txt')!.hunks[0]!.lines).toEqual(['+one']);
  });

  it('not a git work tree: says so instead of failing', async () => {
    const answer = await ask(tempDir(), { kind: 'changes' });
    expect(answer).toMatchObject({ ok: true, kind: 'changes', git: false, reason: expect.stringContaining('not in a git work tree') });
  });

  it('pages: a page holds at most FILES_PER_PAGE files and says where the next starts', async () => {
    const root = repo();
    const count = FILES_PER_PAGE + 5;
    for (let i = 0; i < count; i++) writeFileSync(join(root, `f${String(i).padStart(3, '0')}.txt`), `file ${i}\n`);
    const first = await changes(root);
    expect(first.files).toHaveLength(count);
    expect(first.diffs).toHaveLength(FILES_PER_PAGE);
    expect(first.next).toBe(FILES_PER_PAGE);
    const second = await changes(root, first.next!);
    expect(second.cursor).toBe(FILES_PER_PAGE);
    expect(second.diffs.map((d) => d.path)).toEqual(first.files.slice(FILES_PER_PAGE).map((f) => f.path));
    expect(second.next).toBeNull();
  });

  it('cuts a huge diff at the line cap and a page at its size, one file at least per page', async () => {
    const root = repo();
    const lines = WORKSPACE_MAX_DIFF_LINES + 500;
    writeFileSync(join(root, 'big.txt'), Array.from({ length: lines }, (_, i) => `${'x'.repeat(100)} ${i}\n`).join(''));
    writeFileSync(join(root, 'small.txt'), 'small\n');
    const c = await changes(root);
    const big = c.diffs.find((d) => d.path === 'big.txt')!;
    expect(big.truncated).toBe(true);
    expect(big.lineCount).toBe(lines);
    const shown = big.hunks.reduce((n, h) => n + h.lines.length, 0);
    expect(shown).toBeLessThanOrEqual(WORKSPACE_MAX_DIFF_LINES);
    expect(shown).toBeGreaterThan(0);
    // The page is full with big.txt: small.txt comes on the next one.
    expect(c.diffs.map((d) => d.path)).toEqual(['big.txt']);
    expect(c.next).toBe(1);
    expect(JSON.stringify(c).length).toBeLessThan(512 * 1024);
  });

  it('cuts a long diff of short lines at WORKSPACE_MAX_DIFF_LINES', async () => {
    const root = repo();
    writeFileSync(join(root, 'short-lines.txt'), Array.from({ length: WORKSPACE_MAX_DIFF_LINES + 10 }, (_, i) => `${i}\n`).join(''));
    const c = await changes(root);
    const diff = c.diffs.find((d) => d.path === 'short-lines.txt')!;
    expect(diff).toMatchObject({ truncated: true, lineCount: WORKSPACE_MAX_DIFF_LINES + 10 });
    expect(diff.hunks.reduce((n, h) => n + h.lines.length, 0)).toBe(WORKSPACE_MAX_DIFF_LINES);
  });
});

describe('files', () => {
  /** repo() with two links out of it: link-out (a folder) and secret-link.txt (a file in it). */
  function repoWithLinksOut(): string {
    const root = repo();
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.txt'), 'not yours\n');
    symlinkSync(outside, join(root, 'link-out'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link.txt'));
    return root;
  }

  it('lists directories first, hides .git, marks links in and out of the directory', async () => {
    const root = repoWithLinksOut();
    symlinkSync('src', join(root, 'link-in'));
    const answer = await ask(root, { kind: 'list', path: '' });
    if (!answer.ok || answer.kind !== 'list') throw new Error(JSON.stringify(answer));
    expect(answer.entries.map((e) => e.name)).toEqual(['link-in', 'src', 'link-out', 'logo.bin', 'old-name.txt', 'README.md', 'secret-link.txt']);
    const byName = Object.fromEntries(answer.entries.map((e) => [e.name, e]));
    expect(byName['link-in']).toMatchObject({ kind: 'dir', link: true, outside: false });
    expect(byName['link-out']).toMatchObject({ kind: 'other', link: true, outside: true });
    expect(byName['secret-link.txt']).toMatchObject({ kind: 'other', link: true, outside: true, size: null });
    expect(byName['README.md']).toMatchObject({ kind: 'file', size: 7, link: false });
    const sub = await ask(root, { kind: 'list', path: 'link-in' });
    expect(sub).toMatchObject({ ok: true, entries: [{ name: 'app.ts', kind: 'file' }] });
  });

  it('reads a text file, names a binary one, cuts a large one at a line', async () => {
    const root = repo();
    // A text file read whole carries its bytes' sha256: the base an edit names (file-edits/).
    const sha = createHash('sha256').update(readFileSync(join(root, 'src', 'app.ts'))).digest('hex');
    expect(await ask(root, { kind: 'read', path: 'src/app.ts' })).toMatchObject({ ok: true, kind: 'read', binary: false, truncated: false, text: expect.stringContaining('line10 = 10'), hash: sha });
    expect(await ask(root, { kind: 'read', path: 'logo.bin' })).toEqual({ ok: true, kind: 'read', path: 'logo.bin', size: 6, binary: true, text: null, truncated: false, hash: null });
    writeFileSync(join(root, 'large.txt'), `${'y'.repeat(99)}\n`.repeat(6000));
    const large = await ask(root, { kind: 'read', path: 'large.txt' });
    if (!large.ok || large.kind !== 'read') throw new Error(JSON.stringify(large));
    expect(large.truncated).toBe(true);
    expect(large.hash).toBeNull();
    expect(large.size).toBe(600_000);
    expect(large.text!.endsWith('\n')).toBe(true);
    expect(large.text!.length).toBeLessThanOrEqual(384 * 1024);
  });

  it('refuses ../, absolute paths and links that point out, with a clear error', async () => {
    const root = repoWithLinksOut();
    for (const path of ['../secret.txt', 'src/../../x', '/etc/passwd', 'C:\\Windows', 'src/./app.ts', 'a//b']) {
      for (const kind of ['read', 'list'] as const) {
        const answer = await ask(root, { kind, path });
        expect(answer, `${kind} ${path}`).toMatchObject({ ok: false, code: 'forbidden' });
      }
    }
    for (const [kind, path] of [['read', 'secret-link.txt'], ['read', 'link-out/secret.txt'], ['list', 'link-out']] as const) {
      const answer = await ask(root, { kind, path });
      expect(answer, `${kind} ${path}`).toEqual({ ok: false, code: 'forbidden', error: expect.stringContaining("outside the session's directory") });
    }
    expect(await ask(root, { kind: 'read', path: 'nope.txt' })).toMatchObject({ ok: false, code: 'not_found', error: expect.stringContaining('no such file') });
    expect(await ask(root, { kind: 'read', path: 'src' })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('is a directory') });
    expect(await ask(root, { kind: 'list', path: 'README.md' })).toMatchObject({ ok: false, code: 'bad_request' });
  });
});
