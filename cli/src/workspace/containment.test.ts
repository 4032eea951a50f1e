// containment.test.ts: the ways out of the session's directory an adversarial run tried, each
// refused: a folder on the path swapped for a symbolic link while a read is under way (a race, run
// against a second process that swaps in a loop), a hard link to a file outside, `.git` at any
// depth (its config may hold a remote URL with a token), and a path part too long for the disk.
// Each runs both ways open-inside.ts opens a path: 'proc-fd' (Linux's) and 'recheck' (macOS's, run
// here on Linux), except the listing race, which 'recheck' narrows but cannot close (see there).
import { linkSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspaceReader } from './workspace.ts';
import { readUntracked } from './changes.ts';
import type { OpenVia } from './open-inside.ts';
import { tempDirs } from '../testing/temp-dirs.ts';

const SESSION = '11111111-2222-4333-8444-555555555555';
const SECRET = 'SECRET-OUTSIDE-THE-SESSION';
const INSIDE = 'TEXT-INSIDE-THE-SESSION';
const tempDir = tempDirs('contain');

const VIAS: OpenVia[] = ['proc-fd', 'recheck'];
const reader = (root: string, via: OpenVia) => createWorkspaceReader({ root, via });
const read = (root: string, path: string, via: OpenVia = 'proc-fd') => reader(root, via).answer({ kind: 'read', sessionId: SESSION, path });
const list = (root: string, path: string, via: OpenVia = 'proc-fd') => reader(root, via).answer({ kind: 'list', sessionId: SESSION, path });

/** root/dir/a.txt (inside) and outside/a.txt + outside/only-outside.txt (the secret). */
function world() {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, 'dir'));
  writeFileSync(join(root, 'dir', 'a.txt'), `${INSIDE}\n`);
  writeFileSync(join(outside, 'a.txt'), `${SECRET}\n`);
  writeFileSync(join(outside, 'only-outside.txt'), `${SECRET}\n`);
  return { root, outside };
}

/** A second process that swaps root/dir for a link to `outside` and back as fast as it can (many
 *  swaps: many chances to win the race), until killed (or 20 s at most, so a lost test never leaves
 *  it running). It says when it starts. */
function startSwapper(root: string, outside: string) {
  const code = `
    const { renameSync, symlinkSync, unlinkSync } = require('node:fs');
    const [dir, stash, outside] = process.argv.slice(-3);
    const end = Date.now() + 20000;
    process.stdout.write('swapping\\n');
    while (Date.now() < end) {
      try { renameSync(dir, stash); symlinkSync(outside, dir); for (let i = 0; i < 200; i++); unlinkSync(dir); renameSync(stash, dir); } catch {}
      for (let i = 0; i < 200; i++);
    }`;
  return Bun.spawn([process.execPath, '-e', code, join(root, 'dir'), join(root, 'dir-stash'), outside], { stdout: 'pipe', stderr: 'ignore' });
}

/** Runs `attempt` while the swapper runs: 10,000 times (more until both states were seen), 6 s at
 *  most. Counts the escapes (the secret seen), the reads that saw the inside file and those refused
 *  or not found while the folder was a link or away (both > 0: the race was really run). */
async function race(root: string, outside: string, attempt: () => Promise<string>) {
  const swapper = startSwapper(root, outside);
  // Reads start once it swaps (a process takes a moment to start).
  await swapper.stdout.getReader().read();
  let escapes = 0;
  let inside = 0;
  let refused = 0;
  let reads = 0;
  const end = Date.now() + 6_000;
  try {
    while ((reads < 10_000 || Math.min(inside, refused) === 0) && Date.now() < end) {
      const seen = await attempt();
      reads++;
      if (seen.includes(SECRET) || seen.includes('only-outside')) escapes++;
      else if (seen.includes(INSIDE) || seen.includes('"name":"a.txt"')) inside++;
      else refused++;
    }
  } finally {
    swapper.kill();
    await swapper.exited;
  }
  return { escapes, inside, refused, reads };
}

describe.each(VIAS)('a folder on the path swapped for a link while reading (%s)', (via) => {
  it('a file read never returns the file outside', async () => {
    const { root, outside } = world();
    const result = await race(root, outside, async () => JSON.stringify(await read(root, 'dir/a.txt', via)));
    expect(Math.min(result.inside, result.refused), JSON.stringify(result)).toBeGreaterThan(0);
    expect(result.escapes, JSON.stringify(result)).toBe(0);
  }, 15_000);

  it("an untracked file's diff never reads the file outside", async () => {
    const { root, outside } = world();
    const result = await race(root, outside, async () => JSON.stringify(readUntracked({ root, path: 'dir/a.txt', maxBytes: 1024, via })));
    expect(Math.min(result.inside, result.refused), JSON.stringify(result)).toBeGreaterThan(0);
    expect(result.escapes, JSON.stringify(result)).toBe(0);
  }, 15_000);
});

// 'recheck' checks a listing before and after readdir; a swap and a swap back in between is the
// window it leaves (names and sizes only), so only Linux's way is held to zero here.
it('a listing never names what is outside (proc-fd)', async () => {
  const { root, outside } = world();
  const result = await race(root, outside, async () => JSON.stringify(await list(root, 'dir', 'proc-fd')));
  expect(Math.min(result.inside, result.refused), JSON.stringify(result)).toBeGreaterThan(0);
  expect(result.escapes, JSON.stringify(result)).toBe(0);
}, 15_000);

describe.each(VIAS)('hard links (%s)', (via) => {
  it('a hard-linked file is listed without its size and never read (it may be a file outside)', async () => {
    const { root, outside } = world();
    linkSync(join(outside, 'a.txt'), join(root, 'linked.txt'));
    const answer = await read(root, 'linked.txt', via);
    expect(answer).toEqual({ ok: false, code: 'forbidden', error: expect.stringContaining('hard link') });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
    const listing = await list(root, '', via);
    expect(listing).toMatchObject({ ok: true, entries: expect.arrayContaining([{ name: 'linked.txt', kind: 'file', size: null, link: false, outside: false }]) });
    expect(readUntracked({ root, path: 'linked.txt', maxBytes: 1024, via })).toEqual({ kind: 'not-file' });
    // A link to it is no way round.
    symlinkSync('linked.txt', join(root, 'to-linked.txt'));
    expect(await read(root, 'to-linked.txt', via)).toMatchObject({ ok: false, code: 'forbidden', error: expect.stringContaining('hard link') });
  });
});

describe('hard links in Changes', () => {
  it("a tracked file replaced by a hard link to a file outside: named, its diff never shows the outside file's text", async () => {
    const { root, outside } = world();
    const git = (...args: string[]) => {
      const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, stdout: 'pipe', stderr: 'pipe' });
      if (r.exitCode !== 0) throw new Error(r.stderr.toString());
    };
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'first');
    rmSync(join(root, 'dir', 'a.txt'));
    linkSync(join(outside, 'a.txt'), join(root, 'dir', 'a.txt'));
    const answer = await reader(root, 'proc-fd').answer({ kind: 'changes', sessionId: SESSION, cursor: 0, base: null });
    expect(answer).toMatchObject({ ok: true, git: true, files: [{ path: 'dir/a.txt', status: 'modified' }] });
    expect(answer).toMatchObject({ diffs: [{ path: 'dir/a.txt', hunks: [] }] });
    expect(JSON.stringify(answer)).not.toContain(SECRET);
  });
});

describe.each(VIAS)('.git (%s)', (via) => {
  it('is neither listed nor read at any depth, nor through a link, whatever its case', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://x:ghp_TOKEN@github.com/a/b\n');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', '.git'), 'gitdir: ../.git/worktrees/sub\n');
    symlinkSync('.git', join(root, 'git-link'));
    writeFileSync(join(root, 'sub', 'ok.txt'), 'fine\n');
    for (const path of ['.git', '.git/config', 'sub/.git', '.GIT/config', 'git-link/config', 'git-link']) {
      const answers = [await read(root, path, via), await list(root, path, via)];
      for (const answer of answers) {
        expect(answer, path).toMatchObject({ ok: false, code: 'forbidden', error: expect.stringContaining('.git') });
        expect(JSON.stringify(answer)).not.toContain('ghp_TOKEN');
      }
    }
    const sub = await list(root, 'sub', via);
    expect(sub).toMatchObject({ ok: true, entries: [{ name: 'ok.txt' }] });
    const top = await list(root, '', via);
    expect(top).toMatchObject({ ok: true, entries: [{ name: 'sub' }, { name: 'git-link', link: true }] });
    expect(readUntracked({ root, path: 'sub/.git', maxBytes: 1024, via })).toEqual({ kind: 'not-file' });
  });
});

describe('long names', () => {
  it('a path part over 255 bytes is a bad request, not an internal error', async () => {
    const root = tempDir();
    for (const path of ['x'.repeat(256), `dir/${'é'.repeat(128)}`]) {
      for (const answer of [await read(root, path), await list(root, path)]) {
        expect(answer, path.slice(0, 20)).toEqual({ ok: false, code: 'bad_request', error: expect.stringContaining('255 bytes') });
      }
    }
  });
});
