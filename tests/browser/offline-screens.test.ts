// offline-screens.test.ts: a screen whose code this phone never fetched, opened offline, says so in
// place of that screen and opens by itself once back online. Before: TanStack's lazy route reloaded
// the page (a shell with nothing to fetch, a spinner that never ended), and back online the session
// route said "That isn't a session address". Both viewports; axe in both themes on the notice.
//
//   tap (offline) ─► chat code refused ─► "Not on this device yet" (list and header stay)
//   'online' ─► the chat code loads ─► the chat
import { describe, expect, it } from 'vitest';
import { saveScreenshot, saveScreenshotsInBothThemes, seedLongChat, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { seriousInBothThemes } from '../harness/axe.ts';
import { markDocument, withUnfetchedCode, workerHolds } from '../harness/unfetched-code.ts';

/** The chat screen's chunks: the route's half and the chat view it imports. */
const CHAT_CODE = /\/assets\/(-session-chat|chat-view)-[^/]+\.(js|css)$/;
const CHAT_FILES = [/\/assets\/-session-chat-[^/]+\.js$/, /\/assets\/chat-view-[^/]+\.js$/, /\/assets\/chat-view-[^/]+\.css$/];

/** The page's stylesheets that did not load: a failed link keeps a sheet whose rules cannot be read. */
function unreadableStylesheets(): string[] {
  return [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')]
    .filter((link) => {
      try {
        return !link.sheet || link.sheet.cssRules.length === 0;
      } catch {
        return true;
      }
    })
    .map((link) => link.href);
}

describe('a screen whose code is not on the phone, opened offline', () => {
  const world = useBrowserWorld();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: says so in its place, no reload, and opens once back online`, async () => {
      const namespace = `offline-screens-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/shop', launchKind: 'headless', title: 'Never opened here', status: 'idle' });
      const seeded = await seedLongChat({ store: world.hub.store, namespace, sessionId, count: 8 });
      const page = await world.signedInPage(viewport, token);
      // Under the worker: the code the list loads meanwhile is kept in its cache, not only in the
      // HTTP cache the test empties.
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: UI_TIMEOUT_MS });

      // The list loaded the chat's code ahead of a tap; the worker keeps it (register.ts). Only once
      // it has can that code be taken out again for good.
      for (const file of CHAT_FILES) await expect.poll(() => workerHolds(page, file), { timeout: UI_TIMEOUT_MS }).toBe(true);
      const unfetched = await withUnfetchedCode(page, CHAT_CODE);
      await page.goto(`${world.hub.url}/`);
      const row = page.locator(`a.session-row[href="/sessions/${sessionId}"]`);
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      const sameDocument = await markDocument(page);
      await page.context().setOffline(true);
      await unfetched.offline();
      await row.click();

      const notice = page.getByRole('status').filter({ hasText: 'Not on this device yet' });
      await notice.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await notice.textContent()).toContain('It opens as soon as you are back online.');
      expect(unfetched.refused()).toBeGreaterThan(0);
      expect(new URL(page.url()).pathname).toBe(`/sessions/${sessionId}`);
      expect(await sameDocument()).toBe(true);
      // The session's header stays: only the screen whose code is missing is replaced.
      await page.getByRole('heading', { name: 'Never opened here' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshotsInBothThemes(page, { name: 'offline-screen-not-here', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);

      await unfetched.online();
      await page.context().setOffline(false);
      await page.getByRole('log', { name: 'Chat' }).getByText(seeded.lastText).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await notice.count()).toBe(0);
      // The chat's stylesheet, refused offline with its code, is there too (Vite asks for each file
      // once per page: the app asks again at 'online').
      await expect.poll(() => page.evaluate(unreadableStylesheets), { timeout: UI_TIMEOUT_MS }).toEqual([]);
      expect(await page.locator('.chat-row').first().evaluate((row) => getComputedStyle(row).position)).toBe('absolute');
      await saveScreenshot(page, { name: 'offline-screen-back-online', viewport });
      expect(await sameDocument()).toBe(true);
      await page.context().close();
    });
  }
});
