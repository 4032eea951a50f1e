// phone-cache.test.ts: a revisited session draws from the phone's encrypted cache before the hub
// answers (a tap from the list, and a load of its URL), and a revoked login cannot read that cache:
// online its next page load deletes it, offline the page has no key (it lives in memory only and
// comes with the session list) and the store holds only ciphertext. Both viewports; axe in both themes
// on the chat drawn from the cache.
//
//   hub ─GET /api/sessions {cacheKey}─► page memory ─AES-GCM─► IndexedDB tether-phone-cache
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, saveScreenshotsInBothThemes, seedLongChat, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { seriousInBothThemes } from '../harness/axe.ts';
import { markDocument, withUnfetchedCode, workerHolds } from '../harness/unfetched-code.ts';

const MESSAGES = 400;
/** A slow phone's CPU against this machine's (6×: the revoked page's 401s then land before the shell draws). */
const SLOW_PHONE_CPU = 6;

/** The cache's records as stored: their ids and whether their bytes spell `text` anywhere. */
async function storedRecords(page: Page, text: string): Promise<Array<{ id: string; plain: boolean }>> {
  return page.evaluate(async (needle) => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('tether-phone-cache')) return [];
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('tether-phone-cache');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (!db.objectStoreNames.contains('chats')) {
      db.close();
      return [];
    }
    const all = await new Promise<Array<{ id: string; data: ArrayBuffer }>>((resolve, reject) => {
      const request = db.transaction('chats').objectStore('chats').getAll();
      request.onsuccess = () => resolve(request.result as Array<{ id: string; data: ArrayBuffer }>);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return all.map((r) => ({ id: r.id, plain: new TextDecoder().decode(r.data).includes(needle) }));
  }, text);
}

async function cacheFilled(page: Page, sessionId: string): Promise<void> {
  await expect.poll(async () => (await storedRecords(page, '')).map((r) => r.id), { timeout: UI_TIMEOUT_MS }).toContain(sessionId);
}

/** Everything this origin keeps on disk that a script can read, as one string. */
async function everythingStored(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const parts = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        const response = await (await caches.open(name)).match(request);
        parts.push(request.url, (await response?.text()) ?? '');
      }
    }
    return parts.join('\n');
  });
}

/** The chat screen's own chunk. */
const CHAT_SCREEN_CHUNK = /\/assets\/-session-chat-[^/]+\.js$/;
/** The rule proposals' chunk (and its stylesheet and the one it imports). */
const RULE_PROPOSALS_CODE = /\/assets\/rule-(proposals|words)-[^/]+\.(js|css)$/;

describe('phone cache: draw what the phone has, encrypted, gone with the login', () => {
  const world = useBrowserWorld();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: a revisited session draws from the cache first; a revoked login cannot read it, offline too`, async () => {
      const namespace = `phone-cache-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const tokenId = (await world.hub.store.listTokens({ namespace }))[0]!.id;
      const { sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/shop', launchKind: 'headless', title: 'Cached chat', status: 'idle' });
      const seeded = await seedLongChat({ store: world.hub.store, namespace, sessionId, count: MESSAGES });

      const page = await world.signedInPage(viewport, token);
      // Under the worker before the first tap: the session screen's code goes into its cache, not
      // only into the HTTP cache the offline step empties.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: UI_TIMEOUT_MS });
      const row = page.locator(`a.session-row[href="/sessions/${sessionId}"]`);
      const log = page.getByRole('log', { name: 'Chat' });
      await row.click();
      await log.getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
      await cacheFilled(page, sessionId);
      expect((await storedRecords(page, seeded.lastText)).every((r) => !r.plain)).toBe(true);

      // A tap from the list with the hub out of reach: only the cache can draw it. A part of the
      // shell whose code this phone never fetched (the rule proposals, drawn unprompted once the list
      // is painted) fails to load offline: it costs that part only, never the chat, and no reload.
      // The chat's code is the phone's: the worker keeps what the page loaded before it took over.
      await expect.poll(() => workerHolds(page, CHAT_SCREEN_CHUNK), { timeout: UI_TIMEOUT_MS }).toBe(true);
      const unfetched = await withUnfetchedCode(page, RULE_PROPOSALS_CODE);
      await page.goto(`${world.hub.url}/`);
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      const sameDocument = await markDocument(page);
      await page.context().setOffline(true);
      await unfetched.offline();
      await row.click();
      await log.getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => unfetched.refused(), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0);
      expect(await sameDocument()).toBe(true);
      await log.getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'phone-cache-offline-tap', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);
      // Back online, the part that failed loads again by itself.
      const retried = page.context().waitForEvent('requestfinished', { predicate: (r) => RULE_PROPOSALS_CODE.test(r.url()), timeout: UI_TIMEOUT_MS });
      await unfetched.online();
      await page.context().setOffline(false);
      await retried;

      // A load of the session's URL whose socket never opens: the list (the key) and the session
      // answer over REST, the watch never does; the chat is drawn from the cache all the same.
      await page.routeWebSocket(/\/socket\.io\//, () => {});
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await log.getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(page, { name: 'phone-cache-load-no-socket', viewport });
      await page.unrouteAll({ behavior: 'ignoreErrors' });

      // Offline and revoked meanwhile: a reload has no key (nothing of it was kept) and draws nothing
      // of the chat; the store holds only ciphertext.
      const cacheKey = await page.evaluate(async () => {
        const login = JSON.parse(localStorage.getItem('tether.login') ?? '{}') as { session?: string };
        const response = await fetch('/api/sessions', { headers: { Authorization: `Bearer ${login.session}` } });
        return ((await response.json()) as { cacheKey?: string }).cacheKey ?? '';
      });
      expect(cacheKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      await page.goto(`${world.hub.url}/`);
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      await page.context().setOffline(true);
      await world.hub.store.revokeToken({ id: tokenId, at: Date.now() });
      await page.reload();
      await page.goto(`${world.hub.url}/sessions/${sessionId}`).catch(() => {});
      // The shell is up (from the service worker), and still no message after the key's wait.
      await page.locator('.shell, .detail-placeholder').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await page.waitForTimeout(5_000);
      expect(await page.locator('.chat-row .msg').count()).toBe(0);
      const stored = await storedRecords(page, seeded.lastText);
      expect(stored.map((r) => r.id)).toEqual([sessionId]);
      expect(stored[0]!.plain).toBe(false);
      expect(await everythingStored(page)).not.toContain(cacheKey);
      await saveScreenshot(page, { name: 'phone-cache-revoked-offline', viewport });

      // Back online: the hub refuses the revoked login, the page signs out and the store is gone.
      // On a phone's CPU the session URL's early requests are refused before the shell has drawn:
      // the shell must see a login already lost, not only one lost after it listened.
      await page.context().setOffline(false);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE_CPU });
      await page.goto(`${world.hub.url}/sessions/${sessionId}`);
      await page.waitForURL(/\/login/, { timeout: UI_TIMEOUT_MS });
      await expect.poll(() => storedRecords(page, ''), { timeout: UI_TIMEOUT_MS }).toEqual([]);
      await page.context().close();
    });
  }
});
