// chat-cache.test.ts: the phone cache's store over a Map (the IndexedDB backend is the browser
// test's: tests/browser/phone-cache.test.ts): what it keeps, what it bounds, and that a record opens
// only with the key, namespace and session that sealed it.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@tether/shared';
import { testMessage } from '../../testing/test-records.ts';
import type { CacheBackend, CacheRecord } from './backend.ts';
import { createChatCache, MAX_BYTES, MAX_MESSAGES, MAX_SESSIONS, recentSlice } from './chat-cache.ts';
import { importCacheKey } from './sealed.ts';

const S1 = '00000000-0000-4000-8000-000000000001';
const S2 = '00000000-0000-4000-8000-000000000002';

function mapBackend() {
  const records = new Map<string, CacheRecord>();
  const backend: CacheBackend = {
    get: async (id) => records.get(id),
    put: async (record) => void records.set(record.id, record),
    ages: async () => [...records.values()].sort((a, b) => a.savedAt - b.savedAt).map(({ id, savedAt }) => ({ id, savedAt })),
    remove: async (ids) => ids.forEach((id) => records.delete(id)),
  };
  return { backend, records };
}

function randomRawKey(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
}

const messages = (count: number, text = (seq: number) => `message ${seq}`): ChatMessage[] =>
  Array.from({ length: count }, (_, i) => testMessage({ seq: i + 1, content: [{ type: 'text', text: text(i + 1) }] }));

describe('phone chat cache', () => {
  it('reads back what it wrote, and stores only ciphertext', async () => {
    const { backend, records } = mapBackend();
    const cache = createChatCache({ backend, key: await importCacheKey(randomRawKey()), namespace: 'alpha' });
    const chat = messages(5, (seq) => `secret words ${seq}`);
    await cache.write(S1, chat);
    expect(await cache.read(S1)).toEqual(chat);
    expect(await cache.read(S2)).toBeNull();
    const stored = new TextDecoder().decode(records.get(S1)!.data);
    expect(stored).not.toContain('secret words');
  });

  it('keeps only the newest messages within both bounds', async () => {
    expect(recentSlice(messages(MAX_MESSAGES + 50)).map((m) => m.seq)).toEqual(Array.from({ length: MAX_MESSAGES }, (_, i) => i + 51));
    const big = messages(40, () => 'x'.repeat(20_000));
    const slice = recentSlice(big);
    expect(slice.length).toBeGreaterThan(0);
    expect(slice.length).toBeLessThan(big.length);
    expect(slice[slice.length - 1]!.seq).toBe(40);
    expect(JSON.stringify(slice).length).toBeLessThanOrEqual(MAX_BYTES);
    // One message too big alone: nothing is kept (the hub answers as before).
    expect(recentSlice(messages(1, () => 'x'.repeat(MAX_BYTES)))).toEqual([]);
  });

  it('opens nothing with another key or in another namespace, and drops what it cannot open', async () => {
    const { backend, records } = mapBackend();
    const raw = randomRawKey();
    await createChatCache({ backend, key: await importCacheKey(raw), namespace: 'alpha' }).write(S1, messages(3));
    expect(await createChatCache({ backend, key: await importCacheKey(raw), namespace: 'beta' }).read(S1)).toBeNull();
    expect(records.has(S1)).toBe(false);
    await createChatCache({ backend, key: await importCacheKey(raw), namespace: 'alpha' }).write(S1, messages(3));
    expect(await createChatCache({ backend, key: await importCacheKey(randomRawKey()), namespace: 'alpha' }).read(S1)).toBeNull();
    expect(records.has(S1)).toBe(false);
  });

  it('opens nothing moved to another session slot', async () => {
    const { backend, records } = mapBackend();
    const cache = createChatCache({ backend, key: await importCacheKey(randomRawKey()), namespace: 'alpha' });
    await cache.write(S1, messages(3));
    records.set(S2, { ...records.get(S1)!, id: S2 });
    expect(await cache.read(S2)).toBeNull();
    expect(await cache.read(S1)).toHaveLength(3);
  });

  it('keeps the sessions saved most recently, the oldest go', async () => {
    const { backend, records } = mapBackend();
    let clock = 0;
    const cache = createChatCache({ backend, key: await importCacheKey(randomRawKey()), namespace: 'alpha', now: () => ++clock });
    const ids = Array.from({ length: MAX_SESSIONS + 3 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const id of ids) await cache.write(id, messages(2));
    expect(records.size).toBe(MAX_SESSIONS);
    expect([...records.keys()].sort()).toEqual(ids.slice(3).sort());
  });
});
