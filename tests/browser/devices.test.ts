// devices.test.ts: "Pair once" in the browser (issue 38), at a phone (390×844) and a desktop
// (1280×800). A real hub with 4 s device sessions serves the built web app.
//
//   /#pair=<code> ─► signed in; the refresh secret is an HttpOnly cookie the page cannot read
//   ─► past the short session, a reload is still signed in (renewed by the cookie)
//   ─► Account ▸ Devices: this device marked (axe, both themes) ─► Sign out ─► the login screen,
//      the device revoked on the hub, nothing of tether left in this browser's storage
//   the owner's browser (signed in with the access token) signs a lost phone out: that phone's
//   open tab ends at the login screen by itself
//
// Screenshots: test-artifacts/screenshots/devices-<phone|desktop>[-dark].png, devices-owner-phone.png.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PairCodeCreatedSchema } from '@tether/shared';
import { seriousInBothThemes } from '../harness/axe.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, useColorScheme, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

const SESSION_MS = 4000;

describe('a paired device stays signed in, lists its devices and signs itself out', () => {
  const world = useBrowserWorld({ hub: { deviceSessionMs: SESSION_MS, revocationCheckMs: 60_000 } });

  async function pairedPage(viewport: ViewportName, namespace: string): Promise<{ page: Page; ownerToken: string }> {
    const ownerToken = await world.hub.createToken(namespace, 'laptop');
    const res = await fetch(`${world.hub.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${ownerToken}` } });
    expect(res.status).toBe(201);
    const { code } = PairCodeCreatedSchema.parse(await res.json());
    const page = await world.browser.newPage({ viewport });
    await page.goto(`${world.hub.url}/#pair=${code}`);
    await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    return { page, ownerToken };
  }

  const storedLogin = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('tether.login') ?? 'null') as { session: string; expiresAt: number; renewable?: boolean } | null);

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`at ${viewport}: renewed past its short session, Devices lists it, Sign out ends it here and on the hub`, async () => {
      const namespace = `devices-${viewport}`;
      const { page } = await pairedPage(viewport, namespace);
      const first = await storedLogin(page);
      expect(first).toMatchObject({ renewable: true });

      // The refresh secret is a cookie this page's script never sees.
      expect(await page.evaluate(() => document.cookie)).not.toContain('tether_refresh');
      const [cookie] = (await page.context().cookies(`${world.hub.url}/api/auth/refresh`)).filter((c) => c.name === 'tether_refresh');
      expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/auth/refresh' });
      expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage })))).not.toContain(cookie!.value);

      // Past the short session: a reload is still signed in, with a renewed session.
      await page.waitForTimeout(first!.expiresAt - Date.now() + 250);
      await page.reload();
      await page.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('heading', { name: 'No sessions yet' }).waitFor({ timeout: UI_TIMEOUT_MS });
      const renewed = await storedLogin(page);
      expect(renewed!.session).not.toBe(first!.session);
      expect(renewed!.expiresAt).toBeGreaterThan(Date.now());

      // Account ▸ Devices: this device, marked, with its own Sign out.
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Devices' }).click();
      const dialog = page.getByRole('dialog', { name: 'Devices' });
      await dialog.getByText('This device').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await dialog.getByRole('listitem').count()).toBe(1);
      expect(await dialog.getByRole('listitem').textContent()).toMatch(/Linux Chrome\s*This device\s*Paired .+ · last used just now/);
      await saveScreenshot(page, { name: 'devices', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);
      await useColorScheme(page, 'dark');
      await saveScreenshot(page, { name: 'devices-dark', viewport });
      await useColorScheme(page, 'light');

      const tokenId = (await world.hub.store.listTokens({ namespace })).find((t) => t.kind === 'device')!.id;
      await dialog.getByRole('button', { name: 'Sign out this device' }).click();
      await page.getByRole('heading', { name: 'Connect to your hub' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await world.hub.store.getToken({ id: tokenId }))?.revokedAt).not.toBeNull();
      expect(Object.keys(await page.evaluate(() => ({ ...localStorage }))).filter((k) => k.startsWith('tether.'))).toEqual([]);
      expect((await page.context().cookies(`${world.hub.url}/api/auth/refresh`)).filter((c) => c.name === 'tether_refresh')).toEqual([]);
      await page.close();
    });
  }

  it('the owner\'s browser signs a lost phone out; the phone\'s open tab ends at the login screen by itself', async () => {
    const { page: phone, ownerToken } = await pairedPage('phone', 'devices-owner');
    const owner = await world.browser.newPage({ viewport: 'phone' });
    await loginWithQrLink(owner, { hubUrl: world.hub.url, token: ownerToken });
    await owner.getByRole('heading', { name: 'Sessions', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    await owner.getByRole('button', { name: 'Account' }).click();
    await owner.getByRole('menuitem', { name: 'Devices' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Devices' });
    const signOut = dialog.getByRole('button', { name: 'Sign out Linux Chrome' });
    await signOut.waitFor({ timeout: UI_TIMEOUT_MS });
    await saveScreenshot(owner, { name: 'devices-owner', viewport: 'phone' });
    expect(await seriousInBothThemes(owner)).toEqual([]);
    await signOut.click();
    await dialog.getByText('No paired devices').waitFor({ timeout: UI_TIMEOUT_MS });
    // The phone's socket was closed at once; reconnecting, its renewal is refused: the login screen.
    await phone.getByRole('heading', { name: 'Connect to your hub' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await phone.evaluate(() => localStorage.getItem('tether.login'))).toBeNull();
    await phone.close();
    await owner.close();
  });
});
