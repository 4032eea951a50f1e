// key.ts: the phone cache's key, held in this page's memory only. It arrives with the session list
// (GET /api/sessions `cacheKey`, every signed-in page load asks for it first) and goes with the
// login: a sign-in, a sign-out, a revoked login (its 401 clears the login) or another namespace
// forgets it and deletes the store. A page load that cannot reach the hub has no key, so a phone
// kept offline cannot read its store (docs/decisions/web.md: the cost is the list's round trip).
//
//   sessions list ─cacheKey─► provideCacheKey ─► ChatCache (IndexedDB, sealed) ◄─ use-session-chat
import { getLogin, onLoginChange } from '../hub.ts';
import { deletePhoneCache, indexedDbBackend, warmPhoneCache } from './backend.ts';
import { createChatCache, type ChatCache } from './chat-cache.ts';
import { importCacheKey } from './sealed.ts';

/** How long a chat waits for the key before it watches without the cache (the list is slow or failed). */
const KEY_WAIT_MS = 4_000;

type Held = { raw: string; namespace: string; cache: ChatCache };
let held: Held | null = null;
/** Settled once per page (or per login): the key arrived, or the list answered without one. */
let settled = false;
const waiters = new Set<() => void>();

function settle(): void {
  settled = true;
  for (const wake of waiters) wake();
  waiters.clear();
}

/** The list's answer: its key (or none, or the list failed: `raw` null). */
export async function provideCacheKey(raw: string | null | undefined): Promise<void> {
  const namespace = getLogin()?.namespace;
  if (!raw || !namespace || typeof indexedDB === 'undefined') return settle();
  if (held?.raw === raw && held.namespace === namespace) return settle();
  try {
    const key = await importCacheKey(raw);
    held = { raw, namespace, cache: createChatCache({ backend: indexedDbBackend, key, namespace }) };
    warmPhoneCache();
  } catch {
    held = null; // no WebCrypto (plain http off localhost): no cache
  }
  settle();
}

/** The cache, once the key is here; null when this page has none (waits up to KEY_WAIT_MS for it). */
export async function phoneChatCache(): Promise<ChatCache | null> {
  if (!settled) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, KEY_WAIT_MS);
      waiters.add(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return held?.cache ?? null;
}

/** Whether `cache` is still this login's (a write that lands after a sign-out must not recreate the store). */
export function isCurrentCache(cache: ChatCache): boolean {
  return held?.cache === cache;
}

/** Forgets the key and deletes the store. */
export async function clearPhoneCache(): Promise<void> {
  held = null;
  settled = false;
  await deletePhoneCache();
}

// A renewal is the same login; anything else (signed in, out, revoked, another tab's new login) clears.
onLoginChange(({ renewed }) => {
  if (!renewed) void clearPhoneCache();
});
