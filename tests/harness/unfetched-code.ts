// unfetched-code.ts: makes some of the app's code one this browser never fetched, the way a phone
// that went offline before it needed that code is: out of the service worker's caches and the HTTP
// cache; its requests held while online (so the page cannot load it before the test is offline,
// whenever it would have asked) and refused as a lost connection once offline. Back online, the
// requests go to the hub again. Beside it, what such a test reads: whether the worker holds a file,
// and whether the page stayed on one document (no reload).
//
//   online: request ─► held        offline(): held + new ─► net::ERR_INTERNET_DISCONNECTED
//   online(): nothing intercepted any more
import type { Page, Route } from 'playwright-core';

export type UnfetchedCode = {
  /** Call once the context is offline: what was held and whatever comes next is refused. */
  offline(): Promise<void>;
  /** Call before going back online: requests reach the hub again. */
  online(): Promise<void>;
  /** How many requests were refused. */
  refused(): number;
};

export async function withUnfetchedCode(page: Page, code: RegExp): Promise<UnfetchedCode> {
  await page.evaluate(async (source) => {
    const pattern = new RegExp(source);
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) if (pattern.test(new URL(request.url).pathname)) await cache.delete(request);
    }
  }, code.source);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const held: Route[] = [];
  let offline = false;
  let refused = 0;
  const refuse = async (route: Route) => {
    refused++;
    await route.abort('internetdisconnected').catch(() => {});
  };
  const handler = async (route: Route) => {
    if (offline) await refuse(route);
    else held.push(route);
  };
  await page.context().route(code, handler);
  return {
    async offline() {
      offline = true;
      for (const route of held.splice(0)) await refuse(route);
    },
    async online() {
      await page.context().unroute(code, handler);
    },
    refused: () => refused,
  };
}

/** Whether any of the service worker's caches holds a file whose path matches `code`. */
export async function workerHolds(page: Page, code: RegExp): Promise<boolean> {
  return page.evaluate(async (source) => {
    const pattern = new RegExp(source);
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) if (pattern.test(new URL(request.url).pathname)) return true;
    }
    return false;
  }, code.source);
}

/** Marks the page's document; the returned check says whether the page is still on it (no reload,
 *  no navigation to a new document since). */
export async function markDocument(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => ((window as { tetherMarked?: boolean }).tetherMarked = true));
  return async () => (await page.evaluate(() => (window as { tetherMarked?: boolean }).tetherMarked)) === true;
}
