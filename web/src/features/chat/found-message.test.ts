// found-message.test.ts: Find's chat place → the row that shows it (a block, a tool card, a
// subagent's group), or 'earlier' when the message is not loaded yet.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@tether/shared';
import { testMessage as chatMessage } from '../../testing/test-records.ts';
import { buildChatItems } from './chat-items.ts';
import { foundRowKey } from './found-message.ts';

describe('the row Find jumps to (found-message.ts)', () => {
  const messages: ChatMessage[] = [
    chatMessage({ id: 'm5', seq: 5, role: 'assistant', content: [{ type: 'text', text: 'hello' }, { type: 'tool_use', id: 'tu1', name: 'Bash', input: { command: 'ls' } }] }),
    chatMessage({ id: 'm6', seq: 6, role: 'user', content: [{ type: 'tool_result', toolUseId: 'tu1', content: 'walrus.txt', isError: false }] }),
    chatMessage({ id: 'm7', seq: 7, role: 'assistant', sidechain: true, agentId: 'a1', content: [{ type: 'text', text: 'inside' }] }),
  ];
  const items = buildChatItems(messages);
  const key = (seq: number, block: number, tool: string | null = null) => foundRowKey({ place: { seq, block, tool }, messages, items });

  it('finds a block, a tool result in its call card, a subagent item in its group', () => {
    expect(key(5, 0)).toBe('m5#0');
    expect(key(5, 1)).toBe('m5#1');
    expect(key(6, 0, 'tu1')).toBe('m5#1');
    expect(key(7, 0)).toBe('agent:m7');
  });

  it("says 'earlier' for a message before the loaded ones, null for one it cannot place", () => {
    expect(key(2, 0)).toBe('earlier');
    expect(key(9, 0)).toBeNull();
  });
});
