// chat.ts: a search of one session's chat in the store. The store narrows with a LIKE over the
// stored JSON (queries/messages.ts), newest first, a page of candidates at a time; each candidate's
// readable lines (text, thinking, a tool call's string inputs, a tool's result, an interrupt) are
// tested here with the pattern, because the LIKE also matches keys, ids and escapes.
// Bounded: only the newest FIND_CHAT_SCAN_MESSAGES messages (by seq, the table's key), at most
// CANDIDATE_PAGES pages of candidates, FIND_MAX_MATCHES places.
import {
  FIND_CHAT_SCAN_MESSAGES,
  FIND_MAX_MATCHES,
  FIND_SNIPPET_CHARS,
  lineSnippet,
  type ChatFindMatch,
  type ChatMessage,
  type ContentBlock,
  type LinePattern,
  type Namespace,
} from '@tether/shared';
import type { Store } from '../store/store.ts';

/** Candidates per store query, and how many such pages one search reads at most. */
const CANDIDATE_PAGE = 200;
const CANDIDATE_PAGES = 10;
/** A tool call's input: string leaves this deep are searched. */
const INPUT_DEPTH = 4;

export type ChatFound = { matches: ChatFindMatch[]; stopped: 'matches' | 'scan' | null; from: number | null };

export async function searchChat(o: {
  store: Pick<Store, 'findMessages'>;
  ns: Namespace;
  sessionId: string;
  lastSeq: number;
  pattern: LinePattern;
  caseSensitive: boolean;
  scan?: number;
}): Promise<ChatFound | null> {
  const scan = o.scan ?? FIND_CHAT_SCAN_MESSAGES;
  const after = Math.max(0, o.lastSeq - scan);
  const matches: ChatFindMatch[] = [];
  let before = o.lastSeq + 1;
  for (let page = 0; page < CANDIDATE_PAGES; page++) {
    const rows = await o.store.findMessages({ namespace: o.ns, sessionId: o.sessionId, pieces: o.pattern.pieces, caseSensitive: o.caseSensitive, after, before, limit: CANDIDATE_PAGE });
    if (!rows) return null;
    for (const message of rows) {
      for (const match of messageMatches(message, o.pattern)) {
        if (matches.length >= FIND_MAX_MATCHES) return { matches, stopped: 'matches', from: after > 0 ? after + 1 : null };
        matches.push(match);
      }
    }
    if (rows.length < CANDIDATE_PAGE) return { matches, stopped: null, from: after > 0 ? after + 1 : null };
    before = rows[rows.length - 1]!.seq;
  }
  return { matches, stopped: 'scan', from: before };
}

/** Each readable line of a message that matches, at most one place per line. */
function messageMatches(message: ChatMessage, pattern: LinePattern): ChatFindMatch[] {
  const found: ChatFindMatch[] = [];
  message.content.forEach((block, index) => {
    for (const text of readable(block)) {
      for (const line of text.split('\n')) {
        const at = pattern.match(line);
        if (!at) continue;
        found.push({
          ...lineSnippet(line, at, FIND_SNIPPET_CHARS),
          seq: message.seq,
          messageId: message.id,
          block: index,
          role: message.role,
          createdAt: message.createdAt,
          toolUseId: block.type === 'tool_result' ? block.toolUseId : null,
        });
      }
    }
  });
  return found;
}

/** What the chat shows of a block as text. */
function readable(block: ContentBlock): string[] {
  switch (block.type) {
    case 'text':
    case 'thinking':
    case 'interrupt':
      return [block.text];
    case 'tool_result':
      return [block.content];
    case 'tool_use':
      return stringLeaves(block.input, INPUT_DEPTH);
    default: {
      const never: never = block;
      return never;
    }
  }
}

function stringLeaves(value: unknown, depth: number): string[] {
  if (typeof value === 'string') return [value];
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  return Object.values(value as Record<string, unknown>).flatMap((v) => stringLeaves(v, depth - 1));
}
