// session-header.test.ts: a session's header at 390×844 keeps the title, the status and one line of
// facts within the first 100 px: two rows (back, title, actions; facts that scroll sideways, tools).
// Every fact stays reachable (the line scrolls, it never wraps or hides a chip) and the facts' panels
// open whole. A desktop keeps one row.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';

type Box = { x: number; y: number; width: number; height: number };

async function box(page: Page, selector: string): Promise<Box> {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not on the page`);
  return found;
}

describe('session header', () => {
  const world = useBrowserWorld();

  const open = async (viewport: 'phone' | 'desktop') => {
    const { runner, sessionId } = await world.runnerWithSession(world.hub.token, {
      cwd: '/home/dev/src/checkout-service/packages/payments',
      launchKind: 'pty',
      title: 'Make the checkout button work on mobile Safari',
      status: 'thinking',
      model: 'claude-sonnet-4-5-20250929',
      permissionMode: 'bypassPermissions',
      deskAttached: true,
    });
    expect((await emitAck(runner, 'session:update', { sessionId, patch: { controller: 'remote', effort: 'high' } })).ok).toBe(true);
    const page = await world.signedInPage(viewport, world.hub.token);
    await page.goto(`${world.hub.url}/sessions/${sessionId}`);
    await page.locator('.session-header .pill[data-status="thinking"]').waitFor({ timeout: UI_TIMEOUT_MS });
    return page;
  };

  it('phone: title, status and one line of facts within 100 px; every fact reachable, panels whole', async () => {
    const page = await open('phone');
    const header = await box(page, '.session-header');
    expect(header.height).toBeLessThanOrEqual(100);
    const title = await box(page, '.session-header-title');
    const status = await box(page, '.session-header .pill');
    expect(title.y + title.height).toBeLessThanOrEqual(100);
    expect(status.y + status.height).toBeLessThanOrEqual(100);
    // One line: every fact on the same row, however many there are.
    const middles = await page.locator('.session-header-meta > *').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => r.top + r.height / 2));
    expect(middles.length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThanOrEqual(2);
    // The actions keep their row beside the title; the tools sit beside the facts.
    for (const action of [page.getByRole('link', { name: 'Terminal', exact: true }), page.getByRole('button', { name: 'End session', exact: true })]) {
      expect((await action.boundingBox())!.y).toBeLessThan(title.y + title.height);
    }
    for (const name of ['Approval history', 'Share read-only']) expect((await page.getByRole('button', { name, exact: true }).boundingBox())!.y).toBeGreaterThan(title.y);
    await saveScreenshot(page, { name: 'session-header', viewport: 'phone' });

    // The last fact scrolls into view; nothing of the line is cut off for good.
    const dir = page.locator('.session-header-dir');
    await dir.scrollIntoViewIfNeeded();
    const dirBox = (await dir.boundingBox())!;
    expect(dirBox.x + dirBox.width).toBeLessThanOrEqual(390);
    await saveScreenshot(page, { name: 'session-header-scrolled', viewport: 'phone' });

    // A fact's panel opens whole under the header, not clipped by the scrolling line.
    await page.getByRole('button', { name: /^Model: / }).click();
    const panel = page.getByRole('dialog', { name: 'Switch model' });
    await panel.waitFor({ timeout: UI_TIMEOUT_MS });
    const panelBox = (await panel.boundingBox())!;
    expect(panelBox.height).toBeGreaterThan(120);
    expect(await panel.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.bottom - 8);
      return hit !== null && el.contains(hit);
    })).toBe(true);
    await saveScreenshot(page, { name: 'session-header-model-panel', viewport: 'phone' });
    await page.close();
  });

  it('desktop: one row', async () => {
    const page = await open('desktop');
    const header = await box(page, '.session-header');
    const share = await box(page, '.session-header-tools .icon-button');
    const title = await box(page, '.session-header-title');
    expect(share.y).toBeLessThan(title.y + title.height);
    expect(header.height).toBeLessThanOrEqual(100);
    await saveScreenshot(page, { name: 'session-header', viewport: 'desktop' });
    await page.close();
  });
});
