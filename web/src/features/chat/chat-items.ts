// chat-items.ts: turns transcript messages into what the chat shows, one item per visible thing.
// claude writes one transcript line per content block, so messages map to items block by block:
// user text → a bubble; assistant text → markdown; thinking → a folded line; tool_use → a card that
// carries its tool_result (found by toolUseId, wherever it arrived); interrupts → a notice.
// Subagent (sidechain) activity is gathered into one group per run of the same agent.
import type { ChatMessage, ToolResultBlock, ToolUseBlock } from '@tether/shared';

export type ChatItem =
  | { kind: 'user'; key: string; text: string; createdAt: number; fromRemote: boolean }
  | { kind: 'assistant-text'; key: string; text: string; createdAt: number }
  | { kind: 'thinking'; key: string; text: string }
  | { kind: 'tool'; key: string; use: ToolUseBlock; result: ToolResultBlock | null }
  | { kind: 'interrupt'; key: string; text: string }
  | { kind: 'system'; key: string; text: string }
  | { kind: 'subagent'; key: string; agentId: string | null; items: ChatItem[] };

/** Text claude writes into the transcript for an Esc during a turn; shown as a notice, not a bubble. */
const INTERRUPT_TEXT_RE = /^\[Request interrupted by user[^\]]*\]$/;

function interruptNotice(raw: string): string {
  const text = raw.trim();
  if (!text || INTERRUPT_TEXT_RE.test(text)) return 'Interrupted';
  return text;
}

export function buildChatItems(messages: readonly ChatMessage[]): ChatItem[] {
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    for (const block of message.content) if (block.type === 'tool_result') results.set(block.toolUseId, block);
  }

  const items: ChatItem[] = [];
  let group: Extract<ChatItem, { kind: 'subagent' }> | null = null;

  for (const message of messages) {
    const own: ChatItem[] = [];
    message.content.forEach((block, index) => {
      const key = `${message.id}#${index}`;
      switch (block.type) {
        case 'text': {
          const text = block.text.trim();
          if (!text) return;
          if (message.role === 'user') {
            if (INTERRUPT_TEXT_RE.test(text)) own.push({ kind: 'interrupt', key, text: 'Interrupted' });
            else own.push({ kind: 'user', key, text: block.text, createdAt: message.createdAt, fromRemote: message.promptId !== null });
          } else if (message.role === 'system') own.push({ kind: 'system', key, text });
          else own.push({ kind: 'assistant-text', key, text: block.text, createdAt: message.createdAt });
          return;
        }
        case 'thinking':
          if (block.text.trim()) own.push({ kind: 'thinking', key, text: block.text });
          return;
        case 'tool_use':
          own.push({ kind: 'tool', key, use: block, result: results.get(block.id) ?? null });
          return;
        case 'tool_result':
          return; // folded into its tool card
        case 'interrupt':
          // The runner passes claude's raw marker through; people read one word.
          own.push({ kind: 'interrupt', key, text: interruptNotice(block.text) });
          return;
        default: {
          const never: never = block;
          return never;
        }
      }
    });
    if (own.length === 0) continue;

    if (message.sidechain) {
      if (!group || group.agentId !== message.agentId) {
        group = { kind: 'subagent', key: `agent:${message.id}`, agentId: message.agentId, items: [] };
        items.push(group);
      }
      group.items.push(...own);
    } else {
      group = null;
      items.push(...own);
    }
  }
  return items;
}
