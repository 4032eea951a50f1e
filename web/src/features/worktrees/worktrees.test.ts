import { describe, expect, it } from 'vitest';
import { branchNameProblem } from '@tether/shared';
import { lossSummary } from './archive-worktree-dialog.tsx';
import { suggestedBranch } from './worktree-field.tsx';

describe('the worktree parts of the form and of Archive', () => {
  it('prefills a branch name the hub and the daemon take', () => {
    const name = suggestedBranch(new Date(2026, 10, 27, 9, 5));
    expect(name).toBe('tether/1127-0905');
    expect(branchNameProblem(name)).toBeNull();
  });

  it('names what removing would lose, as the remove button says it', () => {
    expect(lossSummary({ uncommitted: [], unpushed: [] })).toBe('');
    expect(lossSummary({ uncommitted: ['a.ts'], unpushed: [] })).toBe('1 uncommitted file');
    expect(lossSummary({ uncommitted: ['a.ts', 'b.ts'], unpushed: ['abc1234 fix'] })).toBe('2 uncommitted files and 1 unpushed commit');
    expect(lossSummary({ uncommitted: [], unpushed: ['a x', 'b y', 'c z'] })).toBe('3 unpushed commits');
  });
});
