// file-changes.test.ts: Codex's patches (app-server fileChange items, apply_patch text) become the
// neutral FileChanges input the phone draws as files and diffs.
import { describe, expect, it } from 'vitest';
import { FILE_CHANGES_TOOL_NAME, FileChangesInputSchema, MAX_FILE_DIFF_CHARS } from '@tether/shared';
import { fileChangesQuestion, fromApplyPatchText, fromFileUpdateChanges } from './file-changes.ts';

describe('Codex file changes: app-server fileChange items', () => {
  it('an added file is its lines as additions, a deleted one as removals, an update keeps its hunks', () => {
    const changes = fromFileUpdateChanges([
      { path: '/p/new.txt', kind: { type: 'add' }, diff: 'one\ntwo\n' },
      { path: '/p/old.txt', kind: { type: 'delete' }, diff: 'gone\n' },
      { path: '/p/a.ts', kind: { type: 'update', move_path: null }, diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1,2 +1,2 @@\n keep\n-before\n+after\n' },
      { path: '/p/b.ts', kind: { type: 'update', move_path: '/p/c.ts' }, diff: '@@ -1 +1 @@\n-x\n+y' },
    ]);
    expect(changes).toEqual([
      { path: '/p/new.txt', kind: 'add', movePath: null, diff: '+one\n+two' },
      { path: '/p/old.txt', kind: 'delete', movePath: null, diff: '-gone' },
      { path: '/p/a.ts', kind: 'update', movePath: null, diff: '@@ -1,2 +1,2 @@\n keep\n-before\n+after' },
      { path: '/p/b.ts', kind: 'update', movePath: '/p/c.ts', diff: '@@ -1 +1 @@\n-x\n+y' },
    ]);
  });

  it('what is not a change Codex documents is dropped, not guessed', () => {
    expect(fromFileUpdateChanges(undefined)).toEqual([]);
    expect(fromFileUpdateChanges({ path: 'x' })).toEqual([]);
    expect(fromFileUpdateChanges([{ path: 'x', kind: { type: 'rename' }, diff: '' }, { path: 1, kind: { type: 'add' }, diff: '' }, { path: 'y', kind: 'add', diff: '' }])).toEqual([]);
  });

  it('a huge diff is clipped under the protocol limit and says so', () => {
    const [change] = fromFileUpdateChanges([{ path: 'big', kind: { type: 'add' }, diff: 'x'.repeat(MAX_FILE_DIFF_CHARS * 2) }]);
    expect(change!.diff.length).toBeLessThanOrEqual(MAX_FILE_DIFF_CHARS);
    expect(change!.diff.endsWith('(clipped: the rest is too long to show)')).toBe(true);
  });

  it('the question is the neutral FileChanges shape, with Codex’s reason as its description', () => {
    const asked = fileChangesQuestion(fromFileUpdateChanges([{ path: 'a', kind: { type: 'add' }, diff: 'hi' }]), 'write outside the workspace');
    expect(asked.toolName).toBe(FILE_CHANGES_TOOL_NAME);
    expect(FileChangesInputSchema.parse(asked.toolInput)).toEqual({ changes: [{ path: 'a', kind: 'add', movePath: null, diff: '+hi' }], description: 'write outside the workspace' });
    expect(fileChangesQuestion([], null).toolInput).toEqual({ changes: [] });
  });
});

describe('Codex file changes: apply_patch text', () => {
  it('reads added, deleted, updated and moved files in order', () => {
    const patch = [
      '*** Begin Patch',
      '*** Add File: hello.txt',
      '+hello',
      '+world',
      '*** Delete File: stale.txt',
      '*** Update File: src/app.ts',
      '*** Move to: src/main.ts',
      '@@ function main',
      ' const a = 1;',
      '-const b = 2;',
      '+const b = 3;',
      '*** End of File',
      '*** End Patch',
    ].join('\n');
    expect(fromApplyPatchText(patch)).toEqual([
      { path: 'hello.txt', kind: 'add', movePath: null, diff: '+hello\n+world' },
      { path: 'stale.txt', kind: 'delete', movePath: null, diff: '' },
      { path: 'src/app.ts', kind: 'update', movePath: 'src/main.ts', diff: '@@ function main\n const a = 1;\n-const b = 2;\n+const b = 3;' },
    ]);
  });

  it('text that is no patch yields nothing (the card falls back to the raw input)', () => {
    expect(fromApplyPatchText('echo hi')).toEqual([]);
    expect(fromApplyPatchText('')).toEqual([]);
  });
});
