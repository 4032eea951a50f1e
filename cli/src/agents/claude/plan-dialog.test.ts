import { describe, expect, it } from 'vitest';
import { planDialogYesDigit } from './plan-dialog.ts';

describe('planDialogYesDigit', () => {
  it('finds the Yes option of the exit-plan dialog', () => {
    const screen = ['❯ plan it', '────', ' Exit plan mode?', '  Claude wants to exit plan mode', '  ❯ 1. Yes', '    2. No'].join('\n');
    expect(planDialogYesDigit(screen)).toBe('1');
  });
  it('ignores other dialogs and plain text', () => {
    expect(planDialogYesDigit(' Do you want to proceed?\n ❯ 1. Yes\n   2. No')).toBeNull();
    expect(planDialogYesDigit('Yes')).toBeNull();
  });
});
