// chat-cache.ts: each session's recent chat, sealed, on the phone: what a revisited session draws
// before the hub answers. Bounded twice: the newest MAX_MESSAGES of a session within MAX_BYTES, and
// the MAX_SESSIONS saved most recently (older ones are removed on the next write). So what is read
// before the first frame does not grow with a session's history.
// Invariant: a record only opens with the key and namespace that sealed it (sealed.ts); one that
// does not (another login's, tampered) is removed, never drawn.
import type { ChatMessage } from '@tether/shared';
import type { CacheBackend } from './backend.ts';
import { seal, unseal } from './sealed.ts';

/** Enough to fill a tall screen several times over; older ones page in from the hub as ever. */
export const MAX_MESSAGES = 120;
/** A session whose recent messages carry long tool output keeps fewer of them. */
export const MAX_BYTES = 256 * 1024;
export const MAX_SESSIONS = 30;

export type ChatCache = {
  /** The session's cached messages (sorted by seq), or null: none, or not this key's. */
  read(sessionId: string): Promise<ChatMessage[] | null>;
  write(sessionId: string, messages: readonly ChatMessage[]): Promise<void>;
};

/** The newest messages that fit both bounds (at least the newest one, if it alone is too big: none). */
export function recentSlice(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  let bytes = 2;
  for (let i = messages.length - 1; i >= 0 && out.length < MAX_MESSAGES; i--) {
    const message = messages[i]!;
    bytes += JSON.stringify(message).length + 1;
    if (bytes > MAX_BYTES) break;
    out.push(message);
  }
  return out.reverse();
}

function isMessages(value: unknown): value is ChatMessage[] {
  return Array.isArray(value) && value.every((m) => typeof m === 'object' && m !== null && typeof (m as ChatMessage).seq === 'number' && typeof (m as ChatMessage).id === 'string');
}

export function createChatCache(options: { backend: CacheBackend; key: CryptoKey; namespace: string; now?: () => number }): ChatCache {
  const { backend, key, namespace } = options;
  const now = options.now ?? Date.now;
  const aad = (sessionId: string) => `tether chat\0${namespace}\0${sessionId}`;
  return {
    async read(sessionId) {
      const record = await backend.get(sessionId);
      if (!record) return null;
      const value = await unseal({ key, aad: aad(sessionId), sealed: record });
      if (isMessages(value)) return value;
      await backend.remove([sessionId]);
      return null;
    },
    async write(sessionId, messages) {
      const slice = recentSlice(messages);
      if (slice.length === 0) return;
      const sealed = await seal({ key, aad: aad(sessionId), value: slice });
      await backend.put({ id: sessionId, savedAt: now(), ...sealed });
      const ages = await backend.ages();
      if (ages.length > MAX_SESSIONS) await backend.remove(ages.slice(0, ages.length - MAX_SESSIONS).map((a) => a.id));
    },
  };
}
