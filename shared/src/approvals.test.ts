import { describe, expect, it } from 'vitest';
import { AnswerSchema, buildQuestionAnswers, readQuestionAnswer, requestKindForTool } from './approvals.ts';

const questions = [
  { question: 'Which color?', header: 'Color', multiSelect: false, options: [{ label: 'Red', description: '' }, { label: 'Blue', description: '' }] },
  { question: 'Toppings?', header: 'Food', multiSelect: true, options: [{ label: 'Cheese', description: '' }, { label: 'Ham', description: '' }] },
];

describe('buildQuestionAnswers', () => {
  it('keys answers by question text and joins multi-select labels with ", "', () => {
    expect(
      buildQuestionAnswers({ questions, picks: [{ labels: ['Blue'] }, { labels: ['Cheese', 'Ham'], other: 'Olives' }] }),
    ).toEqual({ 'Which color?': 'Blue', 'Toppings?': 'Cheese, Ham, Olives' });
  });
  it('takes free text alone as the answer', () => {
    expect(buildQuestionAnswers({ questions: [questions[0]!], picks: [{ labels: [], other: ' Green ' }] })).toEqual({
      'Which color?': 'Green',
    });
  });
  it('refuses a missing answer and two answers to a single-select question', () => {
    expect(() => buildQuestionAnswers({ questions, picks: [{ labels: [] }, { labels: ['Ham'] }] })).toThrow(/no answer/);
    expect(() => buildQuestionAnswers({ questions, picks: [{ labels: ['Red', 'Blue'] }, { labels: ['Ham'] }] })).toThrow(
      /one answer/,
    );
  });
});

describe('readQuestionAnswer', () => {
  it('reads back what buildQuestionAnswers wrote: the chosen options in their order, and the words that are none', () => {
    const toppings = questions[1]!;
    expect(readQuestionAnswer(toppings, 'Ham, Cheese, Olives')).toEqual({ chosen: ['Cheese', 'Ham'], other: 'Olives' });
    expect(readQuestionAnswer(questions[0]!, 'Blue')).toEqual({ chosen: ['Blue'], other: null });
    expect(readQuestionAnswer(questions[0]!, 'Green')).toEqual({ chosen: [], other: 'Green' });
  });
  it('keeps a label that holds ", " whole, and free text that holds one', () => {
    const q = { options: [{ label: 'Salt, pepper' }, { label: 'Salt' }] };
    expect(readQuestionAnswer(q, 'Salt, pepper')).toEqual({ chosen: ['Salt, pepper'], other: null });
    expect(readQuestionAnswer(q, 'Salt, more salt, please')).toEqual({ chosen: ['Salt'], other: 'more salt, please' });
  });
});

describe('approval schemas', () => {
  it('maps tools to request kinds', () => {
    expect(requestKindForTool('AskUserQuestion')).toBe('question');
    expect(requestKindForTool('ExitPlanMode')).toBe('plan');
    expect(requestKindForTool('Bash')).toBe('permission');
  });
  it('rejects unknown answer fields (no smuggled keys)', () => {
    expect(AnswerSchema.safeParse({ decision: 'allow', __proto__x: 1 }).success).toBe(false);
    expect(AnswerSchema.safeParse({ decision: 'maybe' }).success).toBe(false);
    expect(AnswerSchema.parse({ decision: 'deny', reason: 'no' })).toEqual({ decision: 'deny', reason: 'no' });
  });
});
