// open-inside.test.ts: open-inside.ts both ways ('proc-fd', Linux's; 'recheck', macOS's, run here
// on Linux): what it opens inside the root, what it will not open, and the race made exact: a folder
// on the path is swapped for a link to a folder outside right between containPath's check and the
// open (afterCheck), which the old check-then-open lost every time.
import { linkSync, readFileSync, mkdirSync, readSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDirInside, openInside, type OpenVia } from './open-inside.ts';
import { tempDirs } from '../testing/temp-dirs.ts';

const tempDir = tempDirs('open');

/** root/a/b/file.txt inside; outside/b/file.txt and outside/file.txt with the secret. */
function world() {
  const root = tempDir();
  const outside = tempDir();
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  writeFileSync(join(root, 'a', 'b', 'file.txt'), 'inside\n');
  mkdirSync(join(outside, 'b'));
  writeFileSync(join(outside, 'b', 'file.txt'), 'SECRET\n');
  writeFileSync(join(outside, 'file.txt'), 'SECRET\n');
  return { root, outside };
}

/** Replaces root/<rel> (a folder) with a link to `target`. */
const swapForLink = (root: string, rel: string, target: string) => () => {
  renameSync(join(root, rel), join(root, `${rel}-moved`));
  symlinkSync(target, join(root, rel));
};

function firstBytes(fd: number): string {
  const buffer = Buffer.alloc(64);
  return buffer.subarray(0, readSync(fd, buffer, 0, 64, 0)).toString();
}

describe.each<OpenVia>(['proc-fd', 'recheck'])('openInside (%s)', (via) => {
  it('opens a file and a folder inside, the root too', () => {
    const { root } = world();
    const file = openInside({ root, path: 'a/b/file.txt', via });
    if (!file.ok || file.kind !== 'file') throw new Error(JSON.stringify(file));
    expect(firstBytes(file.fd)).toBe('inside\n');
    file.close();
    for (const path of ['a', 'a/b', '']) {
      const dir = openInside({ root, path, via });
      if (!dir.ok || dir.kind !== 'dir') throw new Error(`${path}: ${JSON.stringify(dir)}`);
      expect(dir.dir.parts).toEqual(path === '' ? [] : path.split('/'));
      dir.dir.close();
    }
  });

  it('follows a link that stays inside, to its real place', () => {
    const { root } = world();
    symlinkSync('a/b', join(root, 'short'));
    const file = openInside({ root, path: 'short/file.txt', via });
    if (!file.ok || file.kind !== 'file') throw new Error(JSON.stringify(file));
    expect(firstBytes(file.fd)).toBe('inside\n');
    file.close();
  });

  it('opens no FIFO (it could hang) and says so', () => {
    const { root } = world();
    const made = Bun.spawnSync(['mkfifo', join(root, 'pipe')]);
    expect(made.exitCode).toBe(0);
    expect(openInside({ root, path: 'pipe', via })).toEqual({ ok: true, kind: 'other' });
  });

  it('a hard link is opened for its stat only: the caller refuses it by nlink', () => {
    const { root, outside } = world();
    linkSync(join(outside, 'file.txt'), join(root, 'linked.txt'));
    const opened = openInside({ root, path: 'linked.txt', via });
    if (via === 'recheck') {
      // The recheck refuses a second name itself (a swapped folder's file could look so).
      expect(opened).toMatchObject({ ok: false, code: 'forbidden', error: expect.stringContaining('hard link') });
      return;
    }
    if (!opened.ok || opened.kind !== 'file') throw new Error(JSON.stringify(opened));
    expect(opened.stat.nlink).toBe(2);
    opened.close();
  });

  for (const [label, rel, path, target] of [
    ['the first folder', 'a', 'a/b/file.txt', 'outside'],
    ['a folder below it', 'a/b', 'a/b/file.txt', 'outside/b'],
  ] as const) {
    it(`${label} swapped for a link out between the check and the open: refused, never opened`, () => {
      const { root, outside } = world();
      const to = target === 'outside' ? outside : join(outside, 'b');
      const file = openInside({ root, path, via, afterCheck: swapForLink(root, rel, to) });
      expect(file, JSON.stringify(file)).toEqual({ ok: false, code: 'forbidden', error: expect.stringContaining('changed while it was read') });
      // The swap bites: opening the checked path by name (the old way) reads the file outside now.
      expect(readFileSync(join(root, path), 'utf8')).toBe('SECRET\n');
    });

    it(`${label} swapped so before a listing: refused`, () => {
      const { root, outside } = world();
      const dir = openDirInside({ root, path: rel, via, afterCheck: swapForLink(root, rel, target === 'outside' ? outside : join(outside, 'b')) });
      expect(dir, JSON.stringify(dir)).toEqual({ ok: false, code: 'forbidden', error: expect.stringContaining('changed while it was read') });
    });
  }
});
