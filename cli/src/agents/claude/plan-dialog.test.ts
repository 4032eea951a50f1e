import { describe, expect, it } from 'vitest';
import type { ScreenModel } from '../../screen/screen.ts';
import { confirmPlanDialog, planDialogYesDigit } from './plan-dialog.ts';

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

describe('confirmPlanDialog', () => {
  const PLAN_DIALOG = ['Exit plan mode?', '', 'Claude wants to exit plan mode', '', '  1. Yes, and switch to default (ask each time) for this session', '  2. No'].join('\n');

  it('covers the plan dialog it answers until that dialog has gone, and no other dialog', async () => {
    let text = PLAN_DIALOG;
    const keys: string[] = [];
    const confirm = confirmPlanDialog({
      screen: { state: async () => ({ text }) as Awaited<ReturnType<ScreenModel['state']>> },
      write: (key) => {
        keys.push(key);
        text = '❯ \n'; // claude took the "Yes"
      },
    });
    // A slow claude may draw it only now, after the hook's answer: it is still the approved plan's.
    expect(confirm.covers(PLAN_DIALOG)).toBe(true);
    expect(confirm.covers(' Do you want to proceed?\n ❯ 1. Yes\n   2. No')).toBe(false);
    expect(await confirm.done).toBe(true);
    expect(keys).toEqual(['1']);
    // Done: a plan dialog drawn later is a new question, not this plan's.
    expect(confirm.covers(PLAN_DIALOG)).toBe(false);
  });

  it('covers nothing once stopped', async () => {
    const confirm = confirmPlanDialog({ screen: { state: async () => ({ text: PLAN_DIALOG }) as Awaited<ReturnType<ScreenModel['state']>> }, write: () => {} });
    confirm.stop();
    expect(await confirm.done).toBe(false);
    expect(confirm.covers(PLAN_DIALOG)).toBe(false);
  });
});
