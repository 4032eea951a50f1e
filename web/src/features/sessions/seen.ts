// seen.ts: how far this device has read each session (its last message seq), kept in localStorage.
// A session whose lastSeq is past that has news: the list marks it unread. A session this device
// had not seen before takes what it has as read (a new phone does not open on a wall of "unread").
// Per device, on purpose: reading on the laptop does not clear the phone's list.
import { useSyncExternalStore } from 'react';

const KEY = 'tether.seen.v1';
/** Entries kept: the most recently seen sessions; older ones fall back to "seen as found". */
const MAX_ENTRIES = 500;

type SeenMap = Record<string, number>;

let cache: SeenMap | null = null;
const listeners = new Set<() => void>();

function read(): SeenMap {
  if (cache) return cache;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    cache = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as SeenMap) : {};
  } catch {
    cache = {};
  }
  return cache;
}

function write(next: SeenMap): void {
  const entries = Object.entries(next);
  // Insertion order is recency (markSeen re-inserts): keep the newest.
  cache = entries.length > MAX_ENTRIES ? Object.fromEntries(entries.slice(-MAX_ENTRIES)) : next;
  try {
    localStorage.setItem(KEY, JSON.stringify(cache));
  } catch {
    // storage full or blocked: unread marks last for this page's life
  }
  for (const listener of listeners) listener();
}

/** This device has read `sessionId` up to `seq`. */
export function markSeen(sessionId: string, seq: number): void {
  const current = read();
  if ((current[sessionId] ?? -1) >= seq) return;
  const { [sessionId]: _old, ...rest } = current;
  write({ ...rest, [sessionId]: seq });
}

/** Sessions first met now are taken as read up to where they are. */
export function baseline(sessions: ReadonlyArray<{ id: string; lastSeq: number }>): void {
  const current = read();
  const fresh = sessions.filter((s) => current[s.id] === undefined);
  if (fresh.length === 0) return;
  write({ ...current, ...Object.fromEntries(fresh.map((s) => [s.id, s.lastSeq])) });
}

export function isUnread(seen: SeenMap, session: { id: string; lastSeq: number }): boolean {
  const at = seen[session.id];
  return at !== undefined && session.lastSeq > at;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key !== KEY) return;
    cache = null; // another tab read something
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSeen(): SeenMap {
  return useSyncExternalStore(subscribe, read, () => ({}));
}
