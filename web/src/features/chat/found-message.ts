// found-message.ts: which row of the chat shows a message Find found. A message's blocks are items
// keyed `${id}#${block}`; a tool's result shows in its call's card; a subagent's items sit inside
// its group's row. A message older than what is loaded is 'earlier' (the chat pages back to it).
import type { ChatMessage } from '@tether/shared';
import type { ChatItem } from './chat-items.ts';

/** Find's place in the chat: a message (by seq), its block, and a tool result's call. */
export type ChatPlace = { seq: number; block: number; tool: string | null };

export function foundRowKey(o: { place: ChatPlace; messages: readonly ChatMessage[]; items: readonly ChatItem[] }): string | 'earlier' | null {
  const { place, messages, items } = o;
  const holds = (item: ChatItem, test: (i: ChatItem) => boolean): boolean => test(item) || (item.kind === 'subagent' && item.items.some((i) => holds(i, test)));
  const rowOf = (test: (i: ChatItem) => boolean) => items.find((item) => holds(item, test))?.key ?? null;
  if (place.tool !== null) {
    const card = rowOf((i) => i.kind === 'tool' && i.use.id === place.tool);
    if (card) return card;
  }
  const message = messages.find((m) => m.seq === place.seq);
  if (!message) return messages[0] !== undefined && place.seq < messages[0].seq ? 'earlier' : null;
  return rowOf((i) => i.key === `${message.id}#${place.block}`) ?? rowOf((i) => i.key.startsWith(`${message.id}#`));
}
