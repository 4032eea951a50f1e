// conversations.ts: what an agent's room tells the daemon about its own saved conversations (issue
// 40: past conversations tether did not run), and the one way to read a file's head. Each room says
// where its files lie and how to read who/where/what from a file's first bytes; the daemon
// (daemon/outside.ts) walks, watches and reports. Nothing here reads a whole conversation.
import { closeSync, openSync, readSync } from 'node:fs';
import { OUTSIDE_TITLE_CHARS } from '@tether/shared';

/** Who, where and what a conversation is, read from its head. */
export type ConversationHead = { agentSessionId: string; folder: string; title: string };

export type ConversationSource = {
  /** Directories its conversation files lie under (some may not exist yet). */
  roots(env: NodeJS.ProcessEnv): string[];
  /** How many folders below a root its files lie (claude: projects/<key>/x.jsonl is 1). */
  depth: number;
  /** Whether a file name is one of its conversations. */
  isConversation(name: string): boolean;
  /** How many bytes of a file's head `readHead` needs at most (a Codex rollout opens with its
   *  instructions). */
  headBytes: number;
  /** The conversation's identity from its head, or null when the head is not one of its records. */
  readHead(o: { path: string; head: string; env: NodeJS.ProcessEnv }): ConversationHead | null;
  /** Agent session ids a live process of the agent runs now (claude's status files), each with the
   *  agent's id for it when it runs as a background session (null: in someone's terminal), and the
   *  directory whose changes change that. */
  liveWriters?: { dir(env: NodeJS.ProcessEnv): string; ids(env: NodeJS.ProcessEnv): Map<string, { backgroundId: string | null }> };
};

/** The first `bytes` of a file as text, cut at its last whole line. */
export function readFileHead(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    const text = buffer.subarray(0, read).toString('utf8');
    if (read < bytes) return text;
    const end = text.lastIndexOf('\n');
    return end < 0 ? '' : text.slice(0, end + 1);
  } finally {
    closeSync(fd);
  }
}

/** Each line of a head that parses as a JSON object (others skipped: a torn or foreign line). */
export function headObjects(head: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of head.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(line);
      if (value && typeof value === 'object' && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    } catch {
      // not a record
    }
  }
  return out;
}

/** A prompt as a title: one line of whitespace, at most OUTSIDE_TITLE_CHARS characters. */
export function titleOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= OUTSIDE_TITLE_CHARS ? flat : `${flat.slice(0, OUTSIDE_TITLE_CHARS - 1)}…`;
}

/** The text parts of a message content that is a string or a list of `{type?, text}` parts. */
export function textParts(content: unknown, type?: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((part: { type?: unknown; text?: unknown }) => (part && typeof part.text === 'string' && (type === undefined || part.type === type) ? [part.text] : []))
    .join('\n');
}
