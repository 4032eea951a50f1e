// first-prompt.test.ts: the reviewer's first prompt: the diff as unified text from the Changes
// pages, every page read, cut with a note past the cap; no diff and an unreadable one said plainly.
import { describe, expect, it } from 'vitest';
import type { WorkspaceChanges } from '@tether/shared';
import { collectDiff, reviewPrompt } from './first-prompt.ts';

const file = (path: string, lines: string[]) => ({ path, binary: false, hunks: [{ oldStart: 1, newStart: 1, section: '', lines }], lineCount: lines.length, truncated: false });
const page = (o: { diffs: ReturnType<typeof file>[]; cursor: number; next: number | null; total: number }): WorkspaceChanges => ({
  kind: 'changes',
  git: true,
  head: 'abc',
  branch: 'main',
  files: [],
  total: o.total,
  cursor: o.cursor,
  diffs: o.diffs,
  next: o.next,
});

describe('collectDiff', () => {
  it('reads every page in order', async () => {
    const asked: number[] = [];
    const text = await collectDiff(async (cursor) => {
      asked.push(cursor);
      return cursor === 0 ? page({ diffs: [file('a.ts', ['-x', '+y'])], cursor: 0, next: 1, total: 2 }) : page({ diffs: [file('b.ts', ['+z'])], cursor: 1, next: null, total: 2 });
    });
    expect(asked).toEqual([0, 1]);
    expect(text).toBe('Compared with HEAD: what is not committed yet.\ndiff --git a/a.ts b/a.ts\n@@ -1,1 +1,1 @@\n-x\n+y\ndiff --git a/b.ts b/b.ts\n@@ -1,0 +1,1 @@\n+z');
  });

  it('cuts past the cap with a note naming what is missing', async () => {
    const big = Array.from({ length: 50 }, (_, i) => `+line ${i} ${'x'.repeat(40)}`);
    const text = await collectDiff(async () => page({ diffs: [file('a.ts', big), file('b.ts', big), file('c.ts', big)], cursor: 0, next: null, total: 3 }), 3000);
    expect(text.length).toBeLessThan(3200);
    expect(text).toContain('diff --git a/a.ts b/a.ts');
    expect(text).not.toContain('diff --git a/c.ts');
    expect(text).toMatch(/\[diff cut at 3000 characters: 2 of 3 files not shown in full; read them in the folder \(git diff\)\]$/);
  });

  it("says when it is a worktree branch's whole work since its base", async () => {
    const text = await collectDiff(async () => ({ ...page({ diffs: [file('a.ts', ['+y'])], cursor: 0, next: null, total: 1 }), against: { ref: 'main', commit: '1234567abcde' } }));
    expect(text.split('\n')[0]).toBe('Compared with main at 1234567abcde, where this branch started: its commits and what is not committed yet.');
  });

  it('says so when there is nothing to compare or the runner cannot answer', async () => {
    expect(await collectDiff(async () => page({ diffs: [], cursor: 0, next: null, total: 0 }))).toBe('Compared with HEAD: what is not committed yet.\n(no changes)');
    expect(await collectDiff(async () => ({ kind: 'changes', git: false, reason: 'not a git repository' }))).toBe('(no diff: not a git repository)');
    expect(await collectDiff(async () => ({ error: 'the runner is not connected' }))).toContain('the diff could not be read: the runner is not connected');
  });
});

describe('reviewPrompt', () => {
  it('holds the instructions, the focus when given, and the diff', () => {
    const text = reviewPrompt({ title: 'Fix the\nreturn value', diff: 'DIFF', focus: '  error paths ' });
    // Its first line names the review in the session list (a session is titled by its first prompt).
    expect(text.split('\n')[0]).toBe('Review of “Fix the return value”');
    expect(text).toContain('You run read-only');
    expect(text).toContain('The person asks you to focus on:\nerror paths\n');
    expect(text).toMatch(/--- diff ---\nDIFF\n--- end of diff ---$/);
    expect(reviewPrompt({ title: 'x', diff: 'DIFF', focus: '' })).not.toContain('focus on');
    expect(reviewPrompt({ title: 'y'.repeat(200), diff: 'DIFF', focus: '' }).split('\n')[0]).toHaveLength('Review of “”'.length + 60);
  });
});
