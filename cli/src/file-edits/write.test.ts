// write.test.ts: a person's save of one file (write.ts) on a real disk: written through a temporary
// file with the file's mode, line endings and byte-order mark; refused when stale (with the current
// text), and for every way out of the boundary or into what runs code, each leaving the disk as it was.
import { chmodSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.ts';
import { contentHash } from '../workspace/read-text.ts';
import { encode, lineEnding, writeWorkspaceFile } from './write.ts';

const temp = { make: tempDirs('edit') };
const hashOf = (path: string) => contentHash(readFileSync(path));

describe("saving a file from the phone (file-edits/write.ts)", () => {
  for (const via of ['proc-fd', 'recheck'] as const) {
    it(`writes through a renamed temporary file, keeping mode and CRLF (${via})`, () => {
      const root = temp.make();
      mkdirSync(join(root, 'src'));
      const file = join(root, 'src', 'run.sh');
      writeFileSync(file, '#!/bin/sh\r\necho one\r\n');
      chmodSync(file, 0o751);
      const inode = statSync(file).ino;
      const done = writeWorkspaceFile({ root, path: 'src/run.sh', text: '#!/bin/sh\necho two\n', base: hashOf(file), via });
      expect(done).toMatchObject({ ok: true, kind: 'written', path: 'src/run.sh', eol: 'crlf', size: 21 });
      expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\r\necho two\r\n');
      expect(statSync(file).mode & 0o7777).toBe(0o751);
      expect(statSync(file).ino).not.toBe(inode); // renamed over, not written in place
      expect(done.ok && done.kind === 'written' && done.hash).toBe(hashOf(file));
      expect(readdirSync(join(root, 'src'))).toEqual(['run.sh']);
    });
  }

  it('keeps a byte-order mark and LF', () => {
    const root = temp.make();
    const file = join(root, 'a.txt');
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\n')]));
    expect(writeWorkspaceFile({ root, path: 'a.txt', text: 'two\r\n', base: hashOf(file) })).toMatchObject({ ok: true, eol: 'lf' });
    expect([...readFileSync(file)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from('two\n')]);
  });

  it('refuses a stale save, sending what the file holds now, and writes nothing', () => {
    const root = temp.make();
    const file = join(root, 'a.txt');
    writeFileSync(file, 'opened\n');
    const base = hashOf(file);
    writeFileSync(file, 'changed at the desk\n');
    expect(writeWorkspaceFile({ root, path: 'a.txt', text: 'mine\n', base })).toEqual({ ok: true, kind: 'stale', path: 'a.txt', hash: hashOf(file), text: 'changed at the desk\n' });
    expect(readFileSync(file, 'utf8')).toBe('changed at the desk\n');
    expect(readdirSync(root)).toEqual(['a.txt']);
  });

  it('refuses every way out and everything that runs code, leaving the disk as it was', () => {
    const root = temp.make();
    const outside = temp.make();
    writeFileSync(join(outside, 'secret.txt'), 'outside\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'dirlink'));
    writeFileSync(join(root, 'inside.txt'), 'inside\n');
    symlinkSync('inside.txt', join(root, 'alias.txt'));
    linkSync(join(outside, 'secret.txt'), join(root, 'hard.txt'));
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(root, '.git', 'hooks', 'pre-commit'), 'exit 0\n');
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.claude', 'settings.local.json'), '{}\n');
    writeFileSync(join(root, '.mcp.json'), '{}\n');
    writeFileSync(join(root, '.envrc'), 'export A=1\n');
    writeFileSync(join(root, 'bin.dat'), Buffer.from([1, 0, 2]));
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(400 * 1024));
    const cases: Array<[string, string, RegExp]> = [
      ['../x.txt', 'forbidden', /no '\.\.'/],
      ['link.txt', 'forbidden', /outside the session's directory/],
      ['dirlink/secret.txt', 'forbidden', /outside the session's directory/],
      ['alias.txt', 'forbidden', /through a symbolic link/],
      ['hard.txt', 'forbidden', /hard link/],
      ['.git/hooks/pre-commit', 'forbidden', /\.git/],
      ['.claude/settings.local.json', 'forbidden', /claude's settings/],
      ['.mcp.json', 'forbidden', /MCP/],
      ['.envrc', 'forbidden', /direnv/],
      ['bin.dat', 'bad_request', /binary/],
      ['big.txt', 'too_large', /at most/],
      ['missing.txt', 'not_found', /no such file/],
    ];
    const before = readFileSync(join(outside, 'secret.txt'), 'utf8');
    for (const [path, code, reason] of cases) {
      const done = writeWorkspaceFile({ root, path, text: 'pwned\n', base: '0'.repeat(64) });
      expect(done, path).toMatchObject({ ok: false, code });
      expect(!done.ok && done.error, path).toMatch(reason);
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe(before);
    expect(readFileSync(join(root, '.envrc'), 'utf8')).toBe('export A=1\n');
    expect(readdirSync(root).filter((n) => n.startsWith('.tether-edit-'))).toEqual([]);
  });

  it('reads line endings by their majority and writes them back', () => {
    expect(lineEnding('a\r\nb\r\nc\n')).toBe('crlf');
    expect(lineEnding('a\nb\nc\r\n')).toBe('lf');
    expect(lineEnding('no break')).toBe('lf');
    expect(encode({ text: 'a\nb\r\n', eol: 'crlf', bom: false }).toString()).toBe('a\r\nb\r\n');
  });
});
