import { describe, expect, it } from 'vitest';
import { cleanFreeText } from './free-text.ts';
import { dialogAnswerProblem, DialogInputSchema, type DialogInput } from './dialog.ts';

const choice: DialogInput = { title: 'Answer Questions', text: [], options: [{ key: '1', label: 'SQLite' }, { key: '2', label: 'Enter a custom value' }], freeText: { key: '2', maxChars: 10 } };
const field: DialogInput = { title: 'Answer Questions', text: [], options: [], freeText: { maxChars: 10 } };
const plain: DialogInput = { title: 'Trust?', text: [], options: [{ key: '1', label: 'Yes' }, { key: '2', label: 'No' }] };

describe('cleanFreeText', () => {
  it('drops every control character, ESC and C1 included; line breaks and tabs become spaces', () => {
    expect(cleanFreeText(' a\x1b[201~b\u0007c\u009bd\u007f\r\ne\tf ')).toBe('a[201~bcd e f');
  });
});

describe('dialogAnswerProblem with a text field', () => {
  it('takes words for the field, alone or with its option', () => {
    expect(dialogAnswerProblem(choice, { decision: 'allow', choice: '2', text: 'mine' })).toBeNull();
    expect(dialogAnswerProblem(choice, { decision: 'allow', text: 'mine' })).toBeNull();
    expect(dialogAnswerProblem(field, { decision: 'allow', text: 'mine' })).toBeNull();
    expect(dialogAnswerProblem(choice, { decision: 'allow', choice: '1' })).toBeNull();
  });
  it('refuses words to a choice-only dialog or another option, the field without words, empty or long words', () => {
    expect(dialogAnswerProblem(plain, { decision: 'allow', text: 'x' })).toMatch(/takes no typed answer/);
    expect(dialogAnswerProblem(choice, { decision: 'allow', choice: '1', text: 'x' })).toMatch(/only option 2/);
    expect(dialogAnswerProblem(choice, { decision: 'allow', choice: '2' })).toMatch(/send its text/);
    expect(dialogAnswerProblem(field, { decision: 'allow', choice: '1' })).toMatch(/send its text/);
    expect(dialogAnswerProblem(field, { decision: 'allow', text: '\x1b\x1b ' })).toMatch(/empty/);
    expect(dialogAnswerProblem(field, { decision: 'allow', text: '12345678901' })).toMatch(/11 characters.*at most 10/);
    // Counted as typed: the control characters that are dropped do not count.
    expect(dialogAnswerProblem(field, { decision: 'allow', text: '1234567890\x1b\x1b' })).toBeNull();
  });
  it('a dialog is two options or more, or one field; a field on an option names one of them', () => {
    expect(DialogInputSchema.safeParse(field).success).toBe(true);
    expect(DialogInputSchema.safeParse({ ...plain, options: [] }).success).toBe(false);
    expect(DialogInputSchema.safeParse({ ...choice, freeText: { key: '5', maxChars: 10 } }).success).toBe(false);
    expect(DialogInputSchema.safeParse({ ...plain, about: { kind: 'file', text: 'b.txt' }, headline: 'Apply this change?' }).success).toBe(true);
  });
});

describe('a note that goes with the chosen option (Codex)', () => {
  const notes: DialogInput = { title: 'Question 1/1', text: [], options: [{ key: '1', label: 'A' }, { key: '2', label: 'B' }], freeText: { notes: true, maxChars: 10 } };
  it('takes an option with or without a note; a note needs an option', () => {
    expect(dialogAnswerProblem(notes, { decision: 'allow', choice: '2', text: 'because' })).toBeNull();
    expect(dialogAnswerProblem(notes, { decision: 'allow', choice: '1' })).toBeNull();
    expect(dialogAnswerProblem(notes, { decision: 'allow', text: 'because' })).toMatch(/choose one/);
    expect(dialogAnswerProblem(notes, { decision: 'allow', choice: '7', text: 'because' })).toMatch(/no option "7"/);
    expect(DialogInputSchema.safeParse({ ...notes, freeText: { notes: true, key: '1', maxChars: 10 } }).success).toBe(false);
  });
});
