// follow.test.ts: what a card takes from its reviewer: the last assistant text of a batch, and the
// state its session's status makes.
import { describe, expect, it } from 'vitest';
import { MAX_REVIEW_ANSWER_CHARS, type ChatMessage } from '@tether/shared';
import { answerIn, stateFor } from './follow.ts';

const message = (role: ChatMessage['role'], content: ChatMessage['content'], seq = 1): ChatMessage => ({ id: `m${seq}`, role, content, createdAt: 1, seq }) as ChatMessage;

describe('answerIn', () => {
  it('takes the last assistant message with text, its text blocks joined', () => {
    const batch = [
      message('assistant', [{ type: 'text', text: 'first' }], 1),
      message('assistant', [{ type: 'text', text: 'Findings:' }, { type: 'tool_use', id: 't', name: 'Read', input: {} }, { type: 'text', text: '1. a bug' }], 2),
      message('assistant', [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }], 3),
      message('user', [{ type: 'text', text: 'not this' }], 4),
    ];
    expect(answerIn(batch)).toBe('Findings:\n1. a bug');
    expect(answerIn([message('user', [{ type: 'text', text: 'hi' }])])).toBeNull();
  });

  it('cuts an answer past the cap with a note', () => {
    const answer = answerIn([message('assistant', [{ type: 'text', text: 'x'.repeat(MAX_REVIEW_ANSWER_CHARS + 10) }])])!;
    expect(answer.length).toBeLessThanOrEqual(MAX_REVIEW_ANSWER_CHARS);
    expect(answer.endsWith('[cut: the whole answer is in its chat]')).toBe(true);
  });
});

describe('stateFor', () => {
  it('is answered only idle with an answer, reviewing while at work, final once the session is', () => {
    expect(stateFor('idle', true)).toBe('answered');
    expect(stateFor('idle', false)).toBe('reviewing');
    expect(stateFor('thinking', true)).toBe('reviewing');
    expect(stateFor('waiting', false)).toBe('reviewing');
    expect(stateFor('starting', false)).toBe('reviewing');
    expect(stateFor('ended', true)).toBe('ended');
    expect(stateFor('failed', false)).toBe('failed');
  });
});
