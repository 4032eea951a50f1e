import { describe, expect, it } from 'vitest';
import { branchNameProblem } from '@tether/shared';
import { WorktreeLossSchema } from '@tether/shared';
import { lossSummary, sizeWords } from './loss-list.tsx';
import { suggestedBranch } from './worktree-field.tsx';

describe('the worktree parts of the form and of Archive', () => {
  it('prefills a branch name the hub and the daemon take', () => {
    const name = suggestedBranch(new Date(2026, 10, 27, 9, 5));
    expect(name).toBe('tether/1127-0905');
    expect(branchNameProblem(name)).toBeNull();
  });

  it('names what removing would lose, as the remove button says it; rebuildable folders alone lose nothing', () => {
    const loss = (fields: object) => WorktreeLossSchema.parse({ uncommitted: [], unpushed: [], ...fields });
    const file = (path: string) => ({ path, bytes: 10, files: 1, atLeast: false });
    expect(lossSummary(loss({}))).toBe('');
    expect(lossSummary(loss({ uncommitted: ['a.ts'] }))).toBe('1 uncommitted file');
    expect(lossSummary(loss({ uncommitted: ['a.ts', 'b.ts'], unpushed: ['abc1234 fix'] }))).toBe('2 uncommitted files and 1 unpushed commit');
    expect(lossSummary(loss({ unpushed: ['a x', 'b y', 'c z'] }))).toBe('3 unpushed commits');
    expect(lossSummary(loss({ uncommitted: ['a.ts'], unpushed: ['a x'], ignored: [file('.env')] }))).toBe('1 uncommitted file, 1 unpushed commit and 1 ignored file');
    expect(lossSummary(loss({ ignored: [file('data/'), file('cache/')] }))).toBe('2 ignored folders');
    expect(lossSummary(loss({ ignored: [file('.env'), file('data/')] }))).toBe('2 ignored files and folders');
    expect(lossSummary(loss({ ignored: [file('.env')], ignoredMore: 1_200 }))).toBe('1,201 ignored files and folders');
    expect(lossSummary(loss({ rebuildable: [{ path: 'node_modules/', bytes: 9_000_000, files: 4_000, atLeast: true }] }))).toBe('');
  });

  it('says a size as the walk found it: a file, a folder, a walk cut short, none', () => {
    expect(sizeWords({ path: '.env', bytes: 120, files: 1, atLeast: false })).toBe('120 B');
    expect(sizeWords({ path: 'data/', bytes: 1_300_000, files: 3, atLeast: false })).toBe('3 files, 1.2 MB');
    expect(sizeWords({ path: 'node_modules/', bytes: 325_000_000, files: 40_000, atLeast: true })).toBe('at least 40,000 files, 309.9 MB');
    expect(sizeWords({ path: 'dist/', bytes: null, files: null, atLeast: false })).toBe('size not measured');
  });
});
