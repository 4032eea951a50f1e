// find-files.test.ts: a search of a session's files on a real disk: names and lines found, and
// everything outside the Files boundary (`.git`, links in or out, hard links, binary, large files)
// never read; each limit (matches, bytes, entries, time) stops the walk and says so.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLinePattern } from '@tether/shared';
import { tempDirs } from '../testing/temp-dirs.ts';
import { createFilesFinder, findInFiles } from './find-files.ts';

const temp = { make: tempDirs('find') };
const literal = (query: string) => compileLinePattern({ query, mode: 'literal', caseSensitive: false });

describe("finding text in the session's files (find/find-files.ts)", () => {
  for (const via of ['proc-fd', 'recheck'] as const) {
    it(`finds names and lines, and reads nothing outside the boundary (${via})`, async () => {
      const root = temp.make();
      const outside = temp.make();
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, '.git'));
      mkdirSync(join(root, 'node_modules'));
      writeFileSync(join(root, 'src', 'zebra.ts'), 'one\r\nconst Zebra = 1;\nthree zebra\n');
      writeFileSync(join(root, '.git', 'config'), 'zebra token\n');
      writeFileSync(join(root, 'node_modules', 'dep.js'), 'zebra\n');
      writeFileSync(join(outside, 'secret.txt'), 'zebra secret\n');
      symlinkSync(join(outside, 'secret.txt'), join(root, 'out.txt'));
      symlinkSync(join(root, 'src', 'zebra.ts'), join(root, 'alias.ts'));
      writeFileSync(join(outside, 'hard.txt'), 'zebra hard\n');
      linkSync(join(outside, 'hard.txt'), join(root, 'hard.txt'));
      writeFileSync(join(root, 'image.bin'), Buffer.from([0x7a, 0x65, 0x62, 0x72, 0x61, 0, 1, 2]));
      const answer = await findInFiles({ root, pattern: literal('zebra'), via });
      expect(answer.matches.map((m) => [m.path, m.line, m.text.slice(m.start, m.end)])).toEqual([
        ['src/zebra.ts', null, 'zebra'],
        ['src/zebra.ts', 2, 'Zebra'],
        ['src/zebra.ts', 3, 'zebra'],
      ]);
      expect(answer.matches[1]!.text).toBe('const Zebra = 1;');
      expect(answer.stopped).toBeNull();
      // out.txt and alias.ts (links), hard.txt (hard link), image.bin (binary)
      expect(answer.skipped).toBe(4);
      expect(answer.files).toBe(2);
    });
  }

  it('matches case when asked, and wildcards within a line', async () => {
    const root = temp.make();
    writeFileSync(join(root, 'a.txt'), 'alpha beta gamma\nAlpha\nalphabet\n');
    const exact = await findInFiles({ root, pattern: compileLinePattern({ query: 'Alpha', mode: 'literal', caseSensitive: true }) });
    expect(exact.matches.map((m) => m.line)).toEqual([2]);
    const wild = await findInFiles({ root, pattern: compileLinePattern({ query: 'al*g?mma', mode: 'wildcard', caseSensitive: false }) });
    expect(wild.matches.map((m) => [m.line, m.text.slice(m.start, m.end)])).toEqual([[1, 'alpha beta gamma']]);
  });

  it('stops at each limit and says which', async () => {
    const root = temp.make();
    for (let i = 0; i < 10; i++) writeFileSync(join(root, `f${i}.txt`), 'needle\n'.repeat(3));
    writeFileSync(join(root, 'big.txt'), `needle\n${'x'.repeat(2000)}\n`);
    const matches = await findInFiles({ root, pattern: literal('needle'), limits: { matches: 5 } });
    expect(matches).toMatchObject({ stopped: 'matches' });
    expect(matches.matches).toHaveLength(5);
    const bytes = await findInFiles({ root, pattern: literal('needle'), limits: { bytes: 30 } });
    expect(bytes.stopped).toBe('bytes');
    expect(bytes.bytes).toBeLessThanOrEqual(30);
    const entries = await findInFiles({ root, pattern: literal('needle'), limits: { entries: 3 } });
    expect(entries.stopped).toBe('entries');
    expect(entries.files).toBe(3);
    const time = await findInFiles({ root, pattern: literal('needle'), limits: { timeMs: -1 } });
    expect(time).toMatchObject({ stopped: 'time', files: 0 });
    const large = await findInFiles({ root, pattern: literal('needle'), limits: { fileBytes: 100 } });
    expect(large.matches.some((m) => m.path === 'big.txt')).toBe(false);
    expect(large.skipped).toBe(1);
  });

  it('answers the hub with an ack, and an error ack when the folder is gone', async () => {
    const root = temp.make();
    writeFileSync(join(root, 'notes.md'), 'hello world\n');
    const finder = createFilesFinder({ root });
    const found = await finder.answer({ sessionId: '00000000-0000-4000-8000-000000000000', q: 'world', mode: 'literal', caseSensitive: false });
    expect(found).toMatchObject({ ok: true, matches: [{ path: 'notes.md', line: 1, start: 6, end: 11 }] });
    const gone = await createFilesFinder({ root: join(root, 'missing') }).answer({ sessionId: '00000000-0000-4000-8000-000000000000', q: 'x', mode: 'literal', caseSensitive: false });
    expect(gone).toMatchObject({ ok: true, matches: [], skipped: 1 });
  });
});
