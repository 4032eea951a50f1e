import { describe, expect, it } from 'vitest';
import { AnswerSchema, askedByLabel, PendingRequestSchema, buildQuestionAnswers, readQuestionAnswer, requestKindForTool } from './approvals.ts';

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

describe('a request asked by a sub-agent', () => {
  const request = { id: '8a0c6a52-4a4e-4a3a-9a57-111111111111', sessionId: '8a0c6a52-4a4e-4a3a-9a57-222222222222', kind: 'permission', toolName: 'Bash', toolInput: { command: 'ls' }, toolUseId: null, createdAt: 1 };
  it('carries who asks, bounded, and is labelled by nickname, role, or short thread id', () => {
    const parsed = PendingRequestSchema.parse({ ...request, askedBy: { nickname: ' Ada ', role: 'explorer', thread: '019a2b3c' } });
    expect(parsed.askedBy).toEqual({ nickname: 'Ada', role: 'explorer', thread: '019a2b3c' });
    expect(askedByLabel(parsed.askedBy!)).toBe('Ada (explorer)');
    expect(askedByLabel({ role: 'explorer', thread: '019a2b3c' })).toBe('explorer');
    expect(askedByLabel({ thread: '019a2b3c' })).toBe('019a2b3c');
    expect(PendingRequestSchema.parse(request).askedBy).toBeUndefined();
  });
  it('refuses an asker naming nobody, an unknown field, a long or multi-line name, a thread id that is not one', () => {
    for (const askedBy of [{}, { who: 'x' }, { nickname: 'a'.repeat(61) }, { nickname: 'Ada\nAllow all' }, { role: '  ' }, { thread: '../../etc' }, { thread: '0123456789abc' }, 'Ada']) {
      expect(PendingRequestSchema.safeParse({ ...request, askedBy }).success, JSON.stringify(askedBy)).toBe(false);
    }
  });
});
