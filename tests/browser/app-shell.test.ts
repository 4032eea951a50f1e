// app-shell.test.ts: the service worker opens the app from its cache first (docs/decisions/web.md,
// "App shell"): a second load never waits for the hub's HTML (here the hub has none to give), a new
// build reaches the app through a changed /sw.js and is what the first load after its worker took
// over opens, and a login revoked meanwhile lands on the sign-in screen from the cached shell. A
// signed-in load's list reads start in the shell's inline script and the app takes them.
//
//   web/dist ─copy─► a build of its own (this test rewrites it) ─► hub ◄── Chromium (phone, desktop)
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { revokeAccessToken } from '@tether/hub';
import { launchBrowser, loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, type BrowserHandle } from '../harness/browser.ts';
import { requireBuiltWeb, WEB_DIST } from '../harness/browser-world.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { DEFAULT_NAMESPACE, startHub, type HubHandle } from '../harness/hub.ts';

/** The build id web/scripts/stamp-service-worker.ts writes into sw.js: index.html's SHA-256, 12 hex. */
const buildIdOf = (html: string) => createHash('sha256').update(html).digest('hex').slice(0, 12);

/** A new build, as `vite build` would make it: index.html changed, sw.js stamped with its id. */
function publishNewBuild(dist: string): string {
  const oldHtml = readFileSync(join(dist, 'index.html'), 'utf8');
  const html = oldHtml.replace('<title>tether</title>', '<title>tether</title><meta name="tether-test-build" content="2" />');
  const worker = readFileSync(join(dist, 'sw.js'), 'utf8');
  expect(worker).toContain(JSON.stringify(buildIdOf(oldHtml)));
  writeFileSync(join(dist, 'index.html'), html);
  writeFileSync(join(dist, 'sw.js'), worker.replace(JSON.stringify(buildIdOf(oldHtml)), JSON.stringify(buildIdOf(html))));
  return buildIdOf(html);
}

async function shellCaches(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await caches.keys()).filter((n) => n.startsWith('tether-shell-')));
}

async function signedInUnderWorker(page: Page, o: { hubUrl: string; token: string }): Promise<void> {
  await loginWithQrLink(page, o);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: UI_TIMEOUT_MS });
}

/** Which build the page's controller is, and its state. Two workers of one script URL look alike to
 *  a page, so it asks the worker (sw.ts answers 'tether-build'). Awaited by page.evaluate: Playwright's
 *  waitForFunction does not await a predicate's promise, so an async predicate passes at once. */
async function controllerBuild(page: Page): Promise<{ build: unknown; state: string | null }> {
  return page.evaluate(async () => {
    const controller = navigator.serviceWorker.controller;
    if (!controller) return { build: null, state: null };
    const channel = new MessageChannel();
    const build = new Promise<unknown>((resolve) => {
      channel.port1.onmessage = (event) => resolve(event.data);
      setTimeout(() => resolve(null), 1000);
    });
    controller.postMessage({ type: 'tether-build' }, [channel.port2]);
    return { build: await build, state: controller.state };
  });
}

const sessionsHeading = (page: Page) => page.getByRole('heading', { name: 'Sessions', level: 1 });

describe('app shell from the service worker cache', () => {
  let dist: string;
  let hub: HubHandle;
  let browser: BrowserHandle;

  beforeAll(async () => {
    requireBuiltWeb('sw.js');
    dist = mkdtempSync(join(tmpdir(), 'tether-shell-dist-'));
    cpSync(WEB_DIST, dist, { recursive: true });
    hub = await startHub({ webDist: dist });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.stop();
    await hub?.stop();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('phone: a second load opens without the hub HTML; a new build is opened by the first load after its worker took over, the old one kept for pages on it', async () => {
    const page = await browser.newPage({ viewport: 'phone' });
    await signedInUnderWorker(page, { hubUrl: hub.url, token: hub.token });
    const firstBuild = await shellCaches(page);
    expect(firstBuild).toHaveLength(1);

    // The hub loses its index.html: every navigation there answers 503. The cached shell opens anyway.
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    unlinkSync(join(dist, 'index.html'));
    const direct = await page.evaluate(() => fetch('/sessions', { cache: 'no-store', headers: { accept: 'text/html' } }).then((r) => r.status));
    expect(direct).toBe(503);
    await page.reload();
    await sessionsHeading(page).waitFor({ timeout: UI_TIMEOUT_MS });
    const served = await page.evaluate(() => performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming);
    expect(served.workerStart).toBeGreaterThan(0);
    // Signed in, the shell's inline script asked for the list and the machines before the app's code
    // ran, and the app took both reads (docs/decisions/web.md, "Opening a session").
    const earlyLeft = await page.evaluate(() => Object.keys((window as unknown as { __tetherEarlyReads?: { reads: object } }).__tetherEarlyReads?.reads ?? { none: true }));
    expect(earlyLeft).toEqual([]);
    writeFileSync(join(dist, 'index.html'), html);

    // A new build. The load that finds it is still the old build's: the browser looks at /sw.js only
    // once that navigation is under way, and the new worker must then install (cache the new shell
    // and its first route) and take over. The page open since then keeps its shell.
    const newBuild = publishNewBuild(dist);
    await page.reload();
    await sessionsHeading(page).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect(page.locator('meta[name="tether-test-build"]').count()).resolves.toBe(0);
    // The first load after the new worker took over (activated, this page's controller) is the new build.
    await expect.poll(() => controllerBuild(page), { timeout: UI_TIMEOUT_MS, interval: 200 }).toEqual({ build: newBuild, state: 'activated' });
    await page.reload();
    await sessionsHeading(page).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(page.locator('meta[name="tether-test-build"]').count()).resolves.toBe(1);
    expect((await shellCaches(page)).sort()).toEqual([...firstBuild, `tether-shell-${newBuild}`].sort());
    await saveScreenshot(page, { name: 'app-shell-new-build', viewport: 'phone' });
    await page.context().close();
  });

  it('desktop: a login revoked while away lands on sign-in from the cached shell (both themes pass axe)', async () => {
    const token = await hub.createToken(DEFAULT_NAMESPACE, 'app-shell revoked');
    const page = await browser.newPage({ viewport: 'desktop' });
    await signedInUnderWorker(page, { hubUrl: hub.url, token });
    const record = (await hub.store.listTokens({ namespace: DEFAULT_NAMESPACE })).find((t) => t.label === 'app-shell revoked');
    expect(await revokeAccessToken({ store: hub.store, id: record!.id })).toBe(true);

    await page.reload();
    await page.getByRole('heading', { name: 'Connect to your hub' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(new URL(page.url()).pathname).toBe('/login');
    const navigation = await page.evaluate(() => performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming);
    expect(navigation.workerStart).toBeGreaterThan(0);
    expect(await page.evaluate(() => localStorage.getItem('tether.login'))).toBeNull();
    expect(await screenshotsAndSeriousInBothThemes(page, { name: 'app-shell-revoked', viewport: 'desktop' })).toEqual([]);
    await page.context().close();
  });
});
