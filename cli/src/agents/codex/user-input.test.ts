import { describe, expect, it } from 'vitest';
import { userInputAnswers, userInputQuestion } from './user-input.ts';

const question = (over: Record<string, unknown> = {}) => ({
  id: 'db',
  header: 'Database',
  question: 'Which database?',
  isOther: true,
  isSecret: false,
  options: [
    { label: 'SQLite', description: 'a file' },
    { label: 'PostgreSQL', description: 'a cluster' },
  ],
  ...over,
});

describe("Codex's request_user_input on the phone", () => {
  it('asks the questions as AskUserQuestion, single choice, headers clipped to what the phone shows', () => {
    const asked = userInputQuestion({ threadId: 't', turnId: 'u', itemId: 'i', isBlocking: true, questions: [question({ header: 'H'.repeat(150) })] });
    expect(asked.ok && asked.toolInput).toEqual({
      questions: [{ question: 'Which database?', header: 'H'.repeat(100), options: [{ label: 'SQLite', description: 'a file' }, { label: 'PostgreSQL', description: 'a cluster' }], multiSelect: false }],
    });
  });

  it('refuses a secret question, one with nothing to pick, and a shape it does not know: nobody is asked', () => {
    expect(userInputQuestion({ questions: [question({ isSecret: true })] })).toMatchObject({ ok: false, why: expect.stringContaining('secret') });
    expect(userInputQuestion({ questions: [question({ options: null })] })).toMatchObject({ ok: false, why: expect.stringContaining('no options') });
    expect(userInputQuestion({ questions: [] })).toMatchObject({ ok: false });
    expect(userInputQuestion({ questions: [{ id: 'x' }] })).toMatchObject({ ok: false });
    expect(userInputQuestion({ questions: [question({ options: Array.from({ length: 11 }, (_, i) => ({ label: `o${i}`, description: '' })) })] })).toMatchObject({ ok: false });
  });

  it("sends the pick and one's own words back by question id; a deny or a missing answer is no answer", () => {
    const asked = userInputQuestion({ questions: [question(), question({ id: 'style', question: 'Tabs?', options: [{ label: 'Yes', description: '' }, { label: 'No', description: '' }] })] });
    if (!asked.ok) throw new Error(asked.why);
    expect(userInputAnswers(asked.params, { behavior: 'allow', updatedInput: { answers: { 'Which database?': 'PostgreSQL', 'Tabs?': 'Yes, only in Makefiles' } } })).toEqual({
      answers: { db: { answers: ['PostgreSQL'] }, style: { answers: ['Yes', 'only in Makefiles'] } },
    });
    expect(userInputAnswers(asked.params, { behavior: 'deny', message: 'no' })).toBeNull();
    expect(userInputAnswers(asked.params, null)).toBeNull();
    expect(userInputAnswers(asked.params, { behavior: 'allow', updatedInput: { answers: { 'Which database?': 'SQLite' } } })).toBeNull();
  });
});
