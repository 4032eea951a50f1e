// The ignored-path scan on a real temp folder: rebuildable folders by their name anywhere (a file of
// that name is not one), sizes summed, links never followed (a link to a large folder counts as
// itself), and every cap (entries, depth, time) said as "at least" or "not measured", never as a
// smaller size; the lost files listed for the digest, a path leaving the worktree never walked.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rebuildableFolderOf, scanIgnored } from './ignored.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-ignored-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(path: string, bytes: number): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), 'x'.repeat(bytes));
}

const roomy = { loss: { entries: 1_000, depth: 64, ms: 10_000 }, rebuildable: { entries: 1_000, depth: 64, ms: 10_000 } };

describe('the ignored-path scan', () => {
  it('knows a rebuildable folder by its name anywhere in the tree, and only a folder', () => {
    const folders: Array<[path: string, folder: string]> = [
      ['node_modules/', 'node_modules/'],
      ['packages/web/node_modules/', 'packages/web/node_modules/'],
      ['build/out.bin', 'build/'],
      ['src/__pycache__/a.pyc', 'src/__pycache__/'],
      ['.venv/', '.venv/'],
      ['app/.next/cache/x', 'app/.next/'],
      // The shortest: a dist inside node_modules is node_modules's.
      ['node_modules/pkg/dist/', 'node_modules/'],
    ];
    for (const [path, folder] of folders) expect(rebuildableFolderOf(path), path).toBe(folder);
    for (const lost of ['.env', 'data/', 'build', 'src/target', 'distribution/', 'my_node_modules/', 'dist.tar']) expect(rebuildableFolderOf(lost), lost).toBeNull();
  });

  it('sorts and measures: the lost paths with their files, one line per rebuildable folder with its size', async () => {
    file('.env', 12);
    file('data/a.db', 100);
    file('data/deep/b.db', 50);
    file('node_modules/x/index.js', 1_000);
    file('node_modules/y/index.js', 24);
    file('build/out.bin', 7);
    file('build/obj/a.o', 3);
    file('pkg/dist/main.js', 10);
    const scan = await scanIgnored({ root: dir, paths: ['data/', '.env', 'node_modules/', 'build/out.bin', 'build/obj/', 'pkg/dist/'], measureRebuildable: true, limits: roomy });
    expect(scan.ignored).toEqual([
      { path: '.env', bytes: 12, files: 1, atLeast: false },
      { path: 'data/', bytes: 150, files: 2, atLeast: false },
    ]);
    expect(scan.rebuildable).toEqual([
      { path: 'build/', bytes: 10, files: 2, atLeast: false },
      { path: 'node_modules/', bytes: 1_024, files: 2, atLeast: false },
      { path: 'pkg/dist/', bytes: 10, files: 1, atLeast: false },
    ]);
    expect({ more: scan.ignoredMore, rebuildableMore: scan.rebuildableMore }).toEqual({ more: 0, rebuildableMore: 0 });
    expect(scan.lostPaths).toEqual(['.env', 'data/']);
    expect([...scan.lostFiles].sort()).toEqual(['.env', 'data/a.db', 'data/deep/b.db']);
    // A removal needs only the loss: the rebuildable folders are named, not walked.
    const named = await scanIgnored({ root: dir, paths: ['.env', 'node_modules/'], measureRebuildable: false, limits: roomy });
    expect(named.rebuildable).toEqual([{ path: 'node_modules/', bytes: null, files: null, atLeast: false }]);
  });

  it('never follows a link: a link to a large folder, or named like a folder, counts as itself', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'tether-ignored-outside-'));
    try {
      writeFileSync(join(outside, 'big.bin'), 'x'.repeat(50_000));
      mkdirSync(join(dir, 'cache'));
      symlinkSync(outside, join(dir, 'cache', 'elsewhere'));
      symlinkSync(outside, join(dir, 'linked'));
      const scan = await scanIgnored({ root: dir, paths: ['cache/', 'linked/'], measureRebuildable: true, limits: roomy });
      expect(scan.ignored.map((e) => [e.path, e.files, e.atLeast])).toEqual([
        ['cache/', 1, false],
        ['linked/', 1, false],
      ]);
      for (const entry of scan.ignored) expect(entry.bytes, entry.path).toBeLessThan(1_000);
      expect([...scan.lostFiles].sort()).toEqual(['cache/elsewhere', 'linked']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('says "at least" past its cap of entries or depth, and "not measured" once the budget is gone', async () => {
    for (let i = 0; i < 30; i += 1) file(`logs/${String(i).padStart(2, '0')}.log`, 10);
    file('z-later.txt', 5);
    const capped = await scanIgnored({ root: dir, paths: ['logs/', 'z-later.txt'], measureRebuildable: true, limits: { ...roomy, loss: { entries: 11, depth: 64, ms: 10_000 } } });
    // The folder itself and 10 of its files: at least 100 bytes; nothing left for the next path.
    expect(capped.ignored).toEqual([
      { path: 'logs/', bytes: 100, files: 10, atLeast: true },
      { path: 'z-later.txt', bytes: null, files: null, atLeast: false },
    ]);
    // The same cap gives the same files each time (the digest depends on them).
    const again = await scanIgnored({ root: dir, paths: ['logs/', 'z-later.txt'], measureRebuildable: true, limits: { ...roomy, loss: { entries: 11, depth: 64, ms: 10_000 } } });
    expect(again.lostFiles).toEqual(capped.lostFiles);

    file('nest/a/b/c/deep.txt', 4);
    file('nest/top.txt', 2);
    const shallow = await scanIgnored({ root: dir, paths: ['nest/'], measureRebuildable: true, limits: { ...roomy, loss: { entries: 1_000, depth: 2, ms: 10_000 } } });
    expect(shallow.ignored).toEqual([{ path: 'nest/', bytes: 2, files: 1, atLeast: true }]);

    const noTime = await scanIgnored({ root: dir, paths: ['nest/'], measureRebuildable: true, limits: { ...roomy, loss: { entries: 1_000, depth: 64, ms: -1 } } });
    expect(noTime.ignored).toEqual([{ path: 'nest/', bytes: null, files: null, atLeast: false }]);
    expect(noTime.lostPaths).toEqual(['nest/']);
  });

  it('names a path that would leave the worktree without walking it, and lists past its cap with a count', async () => {
    file('secret', 10);
    const scan = await scanIgnored({ root: join(dir, 'tree'), paths: ['../secret', '/etc/'], measureRebuildable: true, limits: roomy });
    expect(scan.ignored).toEqual([
      { path: '../secret', bytes: null, files: null, atLeast: false },
      { path: '/etc/', bytes: null, files: null, atLeast: false },
    ]);
    expect(scan.lostFiles).toEqual([]);

    const many = Array.from({ length: 130 }, (_, i) => `f${String(i).padStart(3, '0')}.tmp`);
    const listed = await scanIgnored({ root: dir, paths: many, measureRebuildable: true, limits: roomy });
    expect({ shown: listed.ignored.length, more: listed.ignoredMore, all: listed.lostPaths.length }).toEqual({ shown: 100, more: 30, all: 130 });
  });
});
