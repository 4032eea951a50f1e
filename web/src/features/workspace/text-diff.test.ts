import { describe, expect, it } from 'vitest';
import { textDiff } from './text-diff.ts';

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${i + from}`);

describe('the difference a stale save shows (text-diff.ts)', () => {
  it('is nothing for the same text, whatever its line endings', () => {
    expect(textDiff('a\r\nb\r\n', 'a\nb\n')).toEqual([]);
  });

  it('shows one changed line with three lines of context and its line numbers', () => {
    const before = lines(10).join('\n');
    const after = lines(10).map((l) => (l === 'line 6' ? 'line six' : l)).join('\n');
    expect(textDiff(before, after)).toEqual([{ oldStart: 3, newStart: 3, section: '', lines: [' line 3', ' line 4', ' line 5', '-line 6', '+line six', ' line 7', ' line 8', ' line 9'] }]);
  });

  it('keeps far-apart changes in separate hunks and counts added lines', () => {
    const before = lines(30);
    const after = [...before];
    after.splice(2, 0, 'new near the top');
    after[25] = 'changed near the end';
    const hunks = textDiff(before.join('\n'), after.join('\n'));
    expect(hunks.map((h) => [h.oldStart, h.newStart, h.lines.filter((l) => l[0] !== ' ')])).toEqual([
      [1, 1, ['+new near the top']],
      [22, 23, ['-line 25', '+changed near the end']],
    ]);
  });

  it('shows a large rewrite as blocks instead of matching every line', () => {
    const hunks = textDiff(lines(2000).join('\n'), lines(2000, 5000).join('\n'));
    expect(hunks).toHaveLength(1);
    expect(hunks[0]!.lines.filter((l) => l[0] === '-')).toHaveLength(2000);
    expect(hunks[0]!.lines.filter((l) => l[0] === '+')).toHaveLength(2000);
  });
});
