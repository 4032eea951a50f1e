// list-refetch.test.ts: a session registered while the list is being read again stays in the list.
// The page reads the list once more when its socket connects (to close the gap between its first
// read and joining the live room). A read the hub answered just before a runner registered, and
// that reached the page just after the registration's fact, used to take the new row away for good:
// CI's login journey waited 10 s for a row that had come and gone.
//
//   socket connects ─► GET /api/sessions (held here, answered without the session)
//   runner registers ─► session:updated ─► row ─► held answer lands ─► the row stays
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the session list read again while a runner registers', () => {
  const world = useBrowserWorld();

  it('keeps the row a fact brought after the hub answered the read', async () => {
    const token = await world.hub.createToken('list-refetch');
    const page = await world.browser.newPage({ viewport: 'desktop' });
    let reads = 0;
    let readTaken!: () => void;
    const taken = new Promise<void>((resolve) => (readTaken = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let landed!: () => void;
    const answerLanded = new Promise<void>((resolve) => (landed = resolve));
    await page.route((url) => url.pathname === '/api/sessions', async (route: Route) => {
      reads += 1;
      if (route.request().method() !== 'GET' || reads !== 2) return route.continue();
      // The second read is the one the socket's connect asks for: the hub answers it now…
      const response = await route.fetch();
      readTaken();
      // …and the page gets that answer only after the registration's fact.
      await released;
      await route.fulfill({ response });
      landed();
    });
    await page.goto(`${world.hub.url}/#token=${token}`);
    await page.getByRole('heading', { name: 'No sessions yet' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await taken;

    const runner = await world.connect({ token });
    await world.registerSession(runner, { title: 'Registered during the read' });
    const row = page.getByRole('link', { name: /Registered during the read/ });
    await row.waitFor({ timeout: UI_TIMEOUT_MS });
    release();
    await answerLanded;
    // A later fact goes through the hub and back: by the time its row shows, the page has long
    // since taken the held answer (a few ms of JSON) into its list.
    await world.registerSession(runner, { title: 'Registered after the read' });
    await page.getByRole('link', { name: /Registered after the read/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await row.count()).toBe(1);
    expect(reads).toBeGreaterThanOrEqual(2);
    await page.close();
  });
});
