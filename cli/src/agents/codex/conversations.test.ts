import { describe, expect, it } from 'vitest';
import { codexConversations } from './conversations.ts';

const ID = '01a211de-4916-7e80-a88d-a82561a33ab7';
const line = (o: object) => `${JSON.stringify(o)}\n`;
const meta = line({ timestamp: 't', type: 'session_meta', payload: { id: ID, cwd: '/home/me/p', base_instructions: { text: 'x'.repeat(5000) } } });
const context = line({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>…' }] } });

describe("Codex's rollouts", () => {
  it('session_meta names the thread and folder; the title is what the person sent, not Codex’s context', () => {
    const said = line({ type: 'event_msg', payload: { type: 'item_completed', item: { type: 'UserMessage', content: [{ type: 'text', text: 'add a test' }] } } });
    expect(codexConversations.readHead({ path: '/r.jsonl', head: meta + context + said, env: {} })).toEqual({ agentSessionId: ID, folder: '/home/me/p', title: 'add a test' });
  });

  it('an older user_message event is a prompt too; no prompt yet is an empty title', () => {
    const said = line({ type: 'event_msg', payload: { type: 'user_message', message: 'hello there' } });
    expect(codexConversations.readHead({ path: '/r.jsonl', head: meta + said, env: {} })?.title).toBe('hello there');
    expect(codexConversations.readHead({ path: '/r.jsonl', head: meta, env: {} })?.title).toBe('');
  });

  it('no session_meta, or a thread id that is no UUID: not a conversation', () => {
    expect(codexConversations.readHead({ path: '/r.jsonl', head: context, env: {} })).toBeNull();
    expect(codexConversations.readHead({ path: '/r.jsonl', head: meta.replace(ID, '--help'), env: {} })).toBeNull();
    expect(codexConversations.isConversation('rollout-2026-12-06T07-00-00-x.jsonl')).toBe(true);
  });
});
