// chat-cache-sync.ts: the chat's writes to the phone cache (lib/phone-cache; cached-open.ts reads):
// the hub's first answer of an open at once, later ones once the chat has settled a moment, and what
// is pending when it closes.
import { useCallback, useEffect, useRef } from 'react';
import type { ChatMessage } from '@tether/shared';
import { isCurrentCache, phoneChatCache } from '../../lib/phone-cache/key.ts';
import type { ChatState } from './chat-state.ts';

/** A burst of streamed messages is one write, not one per message. */
const WRITE_SETTLE_MS = 1_000;

function signature(messages: readonly ChatMessage[]): string {
  return `${messages[0]?.seq ?? 0}:${messages[messages.length - 1]?.seq ?? 0}:${messages.length}`;
}

async function writeCachedChat(sessionId: string, messages: readonly ChatMessage[]): Promise<void> {
  try {
    const cache = await phoneChatCache();
    if (cache && isCurrentCache(cache)) await cache.write(sessionId, messages);
  } catch {
    // a full or refused store: the next open asks the hub for all of it, as before
  }
}

/** Keeps the phone cache of one session in step with what the chat shows (when `enabled`). The
 *  answer tells it what the cache drew (no need to write that back). */
export function useChatCacheWrites(options: { sessionId: string; state: ChatState; enabled: boolean; drawnAtMount: readonly ChatMessage[] | null | undefined }): (drawn: readonly ChatMessage[]) => void {
  const { sessionId, state, enabled } = options;
  const written = useRef<string>(options.drawnAtMount ? signature(options.drawnAtMount) : '');
  const pending = useRef<readonly ChatMessage[] | null>(null);

  useEffect(() => {
    if (!enabled || state.phase !== 'ready' || state.messages.length === 0) return;
    const mark = signature(state.messages);
    if (mark === written.current) return;
    const write = () => {
      written.current = mark;
      pending.current = null;
      void writeCachedChat(sessionId, state.messages);
    };
    // The first answer of an open is kept at once (a phone's app may be closed a moment later);
    // what streams in after it, once it settles.
    if (!written.current) return write();
    pending.current = state.messages;
    const timer = setTimeout(write, WRITE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [enabled, sessionId, state.phase, state.messages]);

  // Closing the chat (another session, the list): what it showed last is kept at once.
  useEffect(
    () => () => {
      if (pending.current) void writeCachedChat(sessionId, pending.current);
      pending.current = null;
      written.current = '';
    },
    [sessionId],
  );

  return useCallback((drawn: readonly ChatMessage[]) => {
    written.current = signature(drawn);
  }, []);
}
