import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@tether/shared';
import { testMessage } from '../../testing/test-records.ts';
import { buildChatItems } from './chat-items.ts';

let seq = 0;
function msg(role: ChatMessage['role'], content: ChatMessage['content'], extra: Partial<ChatMessage> = {}): ChatMessage {
  seq += 1;
  return testMessage({ seq, role, content, ...extra });
}

describe('buildChatItems', () => {
  it('folds a tool_result into its tool card by toolUseId and shows no bubble for it', () => {
    const items = buildChatItems([
      msg('assistant', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }]),
      msg('user', [{ type: 'tool_result', toolUseId: 't1', content: 'a\nb', isError: false }]),
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'tool', use: { id: 't1' }, result: { content: 'a\nb' } });
  });
  it('shows an interrupt block from the runner as the same readable notice', () => {
    for (const text of ['[Request interrupted by user]', '[Request interrupted by user for tool use]', '']) {
      const items = buildChatItems([msg('user', [{ type: 'interrupt', text }])]);
      expect(items).toEqual([{ kind: 'interrupt', key: expect.any(String), text: 'Interrupted' }]);
    }
  });

  it('shows claude\'s interrupt line as a notice, not as something the user said', () => {
    const items = buildChatItems([msg('user', [{ type: 'text', text: '[Request interrupted by user]' }])]);
    expect(items).toEqual([{ kind: 'interrupt', key: expect.any(String), text: 'Interrupted' }]);
  });
  it('groups consecutive subagent messages of one agent', () => {
    const items = buildChatItems([
      msg('assistant', [{ type: 'text', text: 'Starting a subagent.' }]),
      msg('assistant', [{ type: 'tool_use', id: 's1', name: 'Read', input: { file_path: '/a' } }], { sidechain: true, agentId: 'A' }),
      msg('assistant', [{ type: 'tool_use', id: 's2', name: 'Grep', input: { pattern: 'x' } }], { sidechain: true, agentId: 'A' }),
      msg('assistant', [{ type: 'text', text: 'Done.' }]),
    ]);
    expect(items.map((i) => i.kind)).toEqual(['assistant-text', 'subagent', 'assistant-text']);
    expect(items[1]).toMatchObject({ kind: 'subagent', agentId: 'A', items: [{ kind: 'tool' }, { kind: 'tool' }] });
  });
  it('skips empty text and thinking blocks', () => {
    expect(buildChatItems([msg('assistant', [{ type: 'text', text: '  ' }, { type: 'thinking', text: '' }])])).toEqual([]);
  });
});
