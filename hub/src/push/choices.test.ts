// The buttons each kind of request gets on its notification, and the exact answer each one gives.
import { describe, expect, it } from 'vitest';
import type { PendingRequest } from '@tether/shared';
import { MAX_BUTTONS, notificationButtons } from './choices.ts';

const base = { id: '00000000-0000-4000-8000-0000000000a1', sessionId: '00000000-0000-4000-8000-0000000000a2', toolUseId: null, createdAt: 1 };
const ask = (kind: PendingRequest['kind'], toolName: string, toolInput: Record<string, unknown>): PendingRequest => ({ ...base, kind, toolName, toolInput });
const question = (options: string[], extra: { multiSelect?: boolean } = {}) => ({ question: 'Which database?', header: 'DB', options: options.map((label) => ({ label, description: '' })), multiSelect: extra.multiSelect ?? false });

describe('notification buttons', () => {
  it('a permission: Allow and Deny', () => {
    expect(notificationButtons(ask('permission', 'Bash', { command: 'ls' }))).toEqual([
      { action: 'allow', title: 'Allow', answer: { decision: 'allow' } },
      { action: 'deny', title: 'Deny', answer: { decision: 'deny' } },
    ]);
  });

  it('a plan: Accept keeps edits asked; Keep planning denies', () => {
    expect(notificationButtons(ask('plan', 'ExitPlanMode', { plan: '1. x' }))).toEqual([
      { action: 'accept', title: 'Accept', answer: { decision: 'allow', planMode: 'default' } },
      { action: 'keep-planning', title: 'Keep planning', answer: { decision: 'deny' } },
    ]);
  });

  it('one single-choice question: an option a button, answering it as the app would', () => {
    const buttons = notificationButtons(ask('question', 'AskUserQuestion', { questions: [question(['Postgres', 'SQLite'])] }));
    expect(buttons).toEqual([
      { action: 'option-1', title: 'Postgres', answer: { decision: 'allow', answers: { 'Which database?': 'Postgres' } } },
      { action: 'option-2', title: 'SQLite', answer: { decision: 'allow', answers: { 'Which database?': 'SQLite' } } },
    ]);
  });

  it('a long option label is cut for the lock screen; the answer keeps it whole', () => {
    const label = 'A very long option label that goes on and on past what a lock screen shows';
    const [first] = notificationButtons(ask('question', 'AskUserQuestion', { questions: [question([label, 'No'])] }))!;
    expect(first!.title).toHaveLength(40);
    expect(first!.title.endsWith('…')).toBe(true);
    expect(first!.answer.answers).toEqual({ 'Which database?': label });
  });

  it('answered in the app: several questions, multi-select, more options than fit, a malformed question, a form', () => {
    const many = Array.from({ length: MAX_BUTTONS + 1 }, (_, i) => `Option ${i + 1}`);
    expect(notificationButtons(ask('question', 'AskUserQuestion', { questions: [question(['a', 'b']), { ...question(['c', 'd']), question: 'Second?' }] }))).toBeNull();
    expect(notificationButtons(ask('question', 'AskUserQuestion', { questions: [question(['a', 'b'], { multiSelect: true })] }))).toBeNull();
    expect(notificationButtons(ask('question', 'AskUserQuestion', { questions: [question(many)] }))).toBeNull();
    expect(notificationButtons(ask('question', 'AskUserQuestion', { questions: 'not a list' }))).toBeNull();
    expect(notificationButtons(ask('elicitation', 'deployer', { serverName: 'deployer', message: 'Who?', requestedSchema: { type: 'object', properties: {} } }))).toBeNull();
  });

  it('a dialog: its options by key, and Open when they do not fit', () => {
    const options = [
      { key: '1', label: 'Yes' },
      { key: '2', label: 'Yes, and don’t ask again' },
      { key: '3', label: 'No' },
    ];
    expect(notificationButtons(ask('dialog', 'Dialog', { title: 'Run it?', text: ['Run it?'], options }))?.map((b) => [b.action, b.answer])).toEqual([
      ['option-1', { decision: 'allow', choice: '1' }],
      ['option-2', { decision: 'allow', choice: '2' }],
      ['option-3', { decision: 'allow', choice: '3' }],
    ]);
    const wide = Array.from({ length: MAX_BUTTONS + 1 }, (_, i) => ({ key: String(i + 1), label: `Choice ${i + 1}` }));
    expect(notificationButtons(ask('dialog', 'Dialog', { title: 'Pick', text: ['Pick'], options: wide }))).toBeNull();
  });

  it('a dialog with an option that is a text field opens the app (a tap cannot type); a note field keeps the buttons', () => {
    const options = [
      { key: '1', label: 'PostgreSQL' },
      { key: '2', label: 'Enter a custom value' },
    ];
    expect(notificationButtons(ask('dialog', 'Dialog', { title: 'Answer Questions', text: ['Which?'], options, freeText: { key: '2', maxChars: 500 } }))).toBeNull();
    expect(notificationButtons(ask('dialog', 'Dialog', { title: 'Run it?', text: ['Run it?'], options, freeText: { notes: true, maxChars: 500 } }))?.map((b) => b.answer)).toEqual([
      { decision: 'allow', choice: '1' },
      { decision: 'allow', choice: '2' },
    ]);
  });
});
