// pwa.test.ts: the app is installable (manifest, icons, a service worker Chromium accepts) and the
// worker caches the shell only: every /api and /socket.io request goes to the network, online or
// not, and offline the shell still opens (and says it cannot reach the hub).
//
//   page ─register /sw.js─► worker ─install: index.html + its assets─► Cache Storage
//   page ─/api/*─► network (never a cache) ; navigation offline ─► cached index.html
import { describe, expect, it } from 'vitest';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('PWA: installable, shell-only cache', () => {
  const world = useBrowserWorld({ requires: 'sw.js' });

  it('phone: manifest + icons + worker make it installable; no API response is ever cached; offline opens the shell', async () => {
    const page = await world.signedInPage('phone', world.hub.token);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));

    // Chromium's own installability check: manifest fields, icons it can fetch, a fetch handler.
    const cdp = await page.context().newCDPSession(page);
    const installability = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
    // Test contexts are incognito profiles, where Chromium never offers an install; nothing else may fail.
    expect(installability.installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const manifest = (await page.evaluate(() => fetch('/manifest.webmanifest').then((r) => r.json()))) as {
      display: string;
      icons: Array<{ src: string; sizes: string; purpose: string }>;
    };
    expect(manifest.display).toBe('standalone');
    for (const icon of manifest.icons) {
      const status = await page.evaluate((src) => fetch(src).then((r) => `${r.status} ${r.headers.get('content-type')}`), icon.src);
      expect(status, icon.src).toMatch(/^200 image\//);
    }
    expect(manifest.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512')).toBe(true);

    // Reload under the worker's control, use the app (REST + socket), then look in every cache.
    await page.reload();
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(page.evaluate(() => navigator.serviceWorker.controller !== null)).resolves.toBe(true);
    await page.getByText('Live').first().waitFor({ timeout: UI_TIMEOUT_MS });
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
      }
      return urls;
    });
    expect(cached).toContain('/');
    expect(cached.some((u) => u.startsWith('/assets/'))).toBe(true);
    expect(cached.filter((u) => u.startsWith('/api') || u.startsWith('/socket.io'))).toEqual([]);

    // Offline: the shell opens from the cache, and API calls fail instead of showing stale data.
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    const api = await page.evaluate(() =>
      fetch('/api/sessions').then(
        (r) => `answered ${r.status}`,
        () => 'network error',
      ),
    );
    expect(api).toBe('network error');
    await saveScreenshot(page, { name: 'pwa-offline', viewport: 'phone' });
    await page.context().setOffline(false);
    await page.close();
  });
});
