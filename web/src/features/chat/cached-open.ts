// cached-open.ts: a session's cached slice (lib/phone-cache), read as soon as the app knows it may
// open: the session route's loader runs on a touch or hover of its row (the router's intent
// preload) and on the navigation itself. By the time the chat mounts, the read is usually done and
// its first render draws the messages, without a render of its own in between.
// A cache too far behind the hub (more than one watch page) is not drawn: the newest page is what
// the hub sends then, and drawing an old slice first would only flash the past.
// Invariant: at most one read is held, it is taken once, and a login change drops it.
import type { ChatMessage } from '@tether/shared';
import { MAX_PAGE_LIMIT } from '@tether/shared/limits';
import { onLoginChange } from '../../lib/hub.ts';
import { phoneChatCache } from '../../lib/phone-cache/key.ts';

type Read = { sessionId: string; promise: Promise<ChatMessage[] | null>; value?: ChatMessage[] | null };
let held: Read | null = null;

async function read(sessionId: string): Promise<ChatMessage[] | null> {
  try {
    const cache = await phoneChatCache();
    return cache ? await cache.read(sessionId) : null;
  } catch {
    return null; // storage refused (private mode, quota): the hub answers as before
  }
}

/** Starts reading the session's slice (once; a read of another session is dropped). */
export function preloadCachedChat(sessionId: string): void {
  if (held?.sessionId === sessionId) return;
  const entry: Read = { sessionId, promise: read(sessionId) };
  entry.promise.then((value) => (entry.value = value), () => (entry.value = null));
  held = entry;
}

function fresh(messages: ChatMessage[] | null | undefined, lastSeq: number | undefined): ChatMessage[] | null {
  const newest = messages?.[messages.length - 1];
  if (!messages || !newest) return null;
  return lastSeq !== undefined && lastSeq - newest.seq > MAX_PAGE_LIMIT ? null : messages;
}

/** The slice if its read has finished (taken: null then means none); undefined while it is under way. */
export function takeReadCachedChat(options: { sessionId: string; lastSeq: number | undefined }): ChatMessage[] | null | undefined {
  if (held?.sessionId !== options.sessionId || held.value === undefined) return undefined;
  const value = held.value;
  held = null;
  return fresh(value, options.lastSeq);
}

/** The slice, once read (the held read of this session, or a new one); taken. */
export async function cachedChat(options: { sessionId: string; lastSeq: number | undefined }): Promise<ChatMessage[] | null> {
  preloadCachedChat(options.sessionId);
  const entry = held!;
  const value = await entry.promise;
  if (held === entry) held = null;
  return fresh(value, options.lastSeq);
}

onLoginChange(({ renewed }) => {
  if (!renewed) held = null;
});
