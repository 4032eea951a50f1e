import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@tether/shared';
import { testMessage } from '../../testing/test-records.ts';
import { chatReducer, INITIAL_CHAT_STATE, mergeMessages } from './chat-state.ts';

const msg = (seq: number, extra: Partial<ChatMessage> = {}): ChatMessage => testMessage({ seq, ...extra });

describe('mergeMessages', () => {
  it('keeps seq order and each id once, whatever order and duplicates come in', () => {
    const merged = mergeMessages([msg(2), msg(4)], [msg(3), msg(1), msg(4), msg(5)]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });
  it('appends in place on the common path (live messages after the end)', () => {
    const existing = [msg(1), msg(2)];
    expect(mergeMessages(existing, [msg(3), msg(4)]).map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(mergeMessages(existing, [])).toBe(existing);
  });
});

describe('chatReducer', () => {
  it('drops an outgoing prompt once the transcript shows a message with its id', () => {
    const promptId = '00000000-0000-4000-8000-0000000000aa';
    let state = chatReducer(INITIAL_CHAT_STATE, { type: 'watched', messages: [msg(1)] });
    state = chatReducer(state, { type: 'prompt', prompt: { id: promptId, text: 'hi', status: 'queued', reason: null, createdAt: 1 } });
    expect(state.prompts).toHaveLength(1);
    state = chatReducer(state, { type: 'messages', messages: [msg(2, { role: 'user', promptId })] });
    expect(state.prompts).toHaveLength(0);
  });
  it('a late status for a delivered prompt does not bring it back', () => {
    const promptId = '00000000-0000-4000-8000-0000000000bb';
    let state = chatReducer(INITIAL_CHAT_STATE, { type: 'watched', messages: [msg(1, { role: 'user', promptId })] });
    state = chatReducer(state, { type: 'prompt', prompt: { id: promptId, text: 'hi', status: 'typing', reason: null, createdAt: 1 } });
    expect(state.prompts).toHaveLength(0);
  });
  it('a prompt withdrawn from any tab leaves the chat; an edit replaces its text', () => {
    const promptId = '00000000-0000-4000-8000-0000000000cc';
    const held = { id: promptId, text: 'first', status: 'queued' as const, reason: null, createdAt: 1, handedAt: null };
    let state = chatReducer(INITIAL_CHAT_STATE, { type: 'prompt', prompt: held });
    state = chatReducer(state, { type: 'prompt', prompt: { ...held, text: 'edited' } });
    expect(state.prompts.map((p) => p.text)).toEqual(['edited']);
    state = chatReducer(state, { type: 'prompt', prompt: { ...held, status: 'dropped', reason: 'withdrawn' } });
    expect(state.prompts).toEqual([]);
  });
  it('knows older messages exist when the first watch page does not start at seq 1', () => {
    expect(chatReducer(INITIAL_CHAT_STATE, { type: 'watched', messages: [msg(40), msg(41)] }).hasEarlier).toBe(true);
    expect(chatReducer(INITIAL_CHAT_STATE, { type: 'watched', messages: [msg(1)] }).hasEarlier).toBe(false);
    const loaded = chatReducer(INITIAL_CHAT_STATE, { type: 'earlier-loaded', messages: [msg(1)], more: false });
    expect(loaded.hasEarlier).toBe(false);
  });
  it('draws the phone cache at once, then the watch after it adds what followed; a watch first wins', () => {
    const cached = chatReducer(INITIAL_CHAT_STATE, { type: 'cached', messages: [msg(380), msg(381)] });
    expect(cached.phase).toBe('ready');
    expect(cached.hasEarlier).toBe(true);
    // The watch asked after seq 381: `forward`, so it says nothing of older ones and keeps the cache's answer.
    const watched = chatReducer(cached, { type: 'watched', messages: [msg(382)] });
    expect(watched.messages.map((m) => m.seq)).toEqual([380, 381, 382]);
    expect(watched.hasEarlier).toBe(true);
    const hubFirst = chatReducer(INITIAL_CHAT_STATE, { type: 'watched', messages: [msg(1), msg(2)] });
    expect(chatReducer(hubFirst, { type: 'cached', messages: [msg(1)] })).toBe(hubFirst);
  });
});
