// pair.test.ts: signing a phone in with a one-time pairing code, at a phone (390×844) and a desktop
// (1280×800). A real hub serves the built web app; the code comes from POST /api/pair-codes, as
// `tether pair` gets it.
//
//   /#pair=<code> ─► signed in (a device token of its own) ─► the SAME link in a new browser ─► the
//   login screen says the code expired or was used and to run `tether pair` (axe, both themes)
//
// Screenshots: test-artifacts/screenshots/pair-used-<phone|desktop>[-dark].png.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PairCodeCreatedSchema } from '@tether/shared';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

async function visible(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
}

describe('pairing a phone with a one-time code', () => {
  const world = useBrowserWorld();

  /** A code of `namespace`'s, made the way `tether pair` makes one (with a token of that namespace). */
  async function pairCode(namespace: string): Promise<string> {
    const token = await world.hub.createToken(namespace, 'laptop');
    const res = await fetch(`${world.hub.url}/api/pair-codes`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(201);
    return PairCodeCreatedSchema.parse(await res.json()).code;
  }

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`at ${viewport}: the link signs in once; opened again it says why not and what to do`, async () => {
      const namespace = `pair-${viewport}`;
      const code = await pairCode(namespace);
      const link = `${world.hub.url}/#pair=${code}`;

      const phone = await world.browser.newPage({ viewport });
      await phone.goto(link);
      await visible(phone.getByRole('heading', { name: 'Sessions', level: 1 }));
      await visible(phone.getByRole('heading', { name: 'No sessions yet' }));
      // The code leaves the address bar (and history) at once; only the session is stored.
      expect(phone.url()).toBe(`${world.hub.url}/`);
      const stored = await phone.evaluate(() => JSON.stringify(localStorage));
      expect(stored).not.toContain(code);
      expect(stored).toContain(namespace);
      // The phone is a device of its own: a token of the namespace, listed and revocable alone.
      const devices = (await world.hub.store.listTokens({ namespace })).filter((t) => t.label.startsWith('paired device'));
      expect(devices).toHaveLength(1);
      expect(devices[0]!.label).toMatch(/^paired device \d{4}-\d{2}-\d{2} Linux Chrome$/);

      // The same link again, in another browser: refused, with what happened and what to do.
      const again = await world.browser.newPage({ viewport });
      await again.goto(link);
      await visible(again.getByRole('heading', { name: 'Connect to your hub' }));
      const alert = again.getByRole('alert');
      await visible(alert);
      const text = await alert.textContent();
      expect(text).toContain('This pairing code has expired or was already used');
      expect(text).toContain('tether pair');
      expect(again.url()).not.toContain(code);
      expect(await again.evaluate(() => localStorage.getItem('tether.login'))).toBeNull();
      expect((await world.hub.store.listTokens({ namespace })).filter((t) => t.label.startsWith('paired device'))).toHaveLength(1);
      expect(await screenshotsAndSeriousInBothThemes(again, { name: 'pair-used', viewport })).toEqual([]);
      await phone.close();
      await again.close();
    });
  }

  it('an unknown code says so; a pasted code signs in; an old #token= link still works', async () => {
    const page = await world.browser.newPage({ viewport: 'phone' });
    await page.goto(`${world.hub.url}/#pair=tpc_${randomBytes(24).toString('base64url')}`);
    const alert = page.getByRole('alert');
    await visible(alert);
    expect(await alert.textContent()).toContain("This hub doesn't know that pairing code. Run tether pair");
    expect(page.url()).toBe(`${world.hub.url}/login`);

    const code = await pairCode('pair-pasted');
    await page.getByLabel('Access token or pairing code').fill(` ${code} `);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('heading', { name: 'Sessions', level: 1 }));
    expect(await page.evaluate(() => localStorage.getItem('tether.login'))).toContain('pair-pasted');

    const old = await world.browser.newPage({ viewport: 'desktop' });
    await old.goto(`${world.hub.url}/#token=${world.hub.token}`);
    await visible(old.getByRole('heading', { name: 'Sessions', level: 1 }));
    expect(old.url()).toBe(`${world.hub.url}/`);
    await page.close();
    await old.close();
  });
});
