import { describe, expect, it } from 'vitest';
import { opencodeEditChanges, opencodeEditQuestion } from './edit-request.ts';

// What opencode's write tool asks for a new file (its diff of the whole file, headers and all).
const NEW_FILE = 'Index: /p/notes.txt\n===================================================================\n--- /p/notes.txt\n+++ /p/notes.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n';

describe("opencode's edit requests as FileChanges", () => {
  it('a write of a new file: added, its diff from the first hunk on', () => {
    expect(opencodeEditQuestion({ filepath: '/p/notes.txt', diff: NEW_FILE })).toEqual({
      toolName: 'FileChanges',
      toolInput: { changes: [{ path: '/p/notes.txt', kind: 'add', movePath: null, diff: '@@ -0,0 +1,2 @@\n+one\n+two' }] },
    });
  });

  it("apply_patch's list of files, each with its kind; an unreadable one dropped", () => {
    const files = [
      { filePath: '/p/a.ts', type: 'update', patch: '--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y' },
      { filePath: '/p/b.ts', type: 'move', movePath: '/p/c.ts', patch: '@@ -1 +1 @@\n-b\n+c' },
      { filePath: '/p/d.ts', type: 'delete', patch: '@@ -1 +0,0 @@\n-d' },
      { filePath: '/p/e.ts', type: 'chmod' },
      'nonsense',
    ];
    expect(opencodeEditChanges({ filepath: 'a.ts, b.ts', diff: '', files })).toEqual([
      { path: '/p/a.ts', kind: 'update', movePath: null, diff: '@@ -1 +1 @@\n-x\n+y' },
      { path: '/p/b.ts', kind: 'update', movePath: '/p/c.ts', diff: '@@ -1 +1 @@\n-b\n+c' },
      { path: '/p/d.ts', kind: 'delete', movePath: null, diff: '@@ -1 +0,0 @@\n-d' },
    ]);
  });

  it('no file named: no question of its own', () => {
    expect(opencodeEditQuestion({ diff: NEW_FILE })).toBeNull();
    expect(opencodeEditQuestion(null)).toBeNull();
  });
});
