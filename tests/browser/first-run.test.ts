// first-run.test.ts: the empty session list of a hub run from a source checkout, where `tether` is
// not on PATH: it tells the command that works there (`npm run tether -- claude`, copyable), names
// the other agents, and the daemon in the same words, at a phone and a desktop (axe, both themes).
// The hub learns how it runs from `tether hub` (cli/src/config/build.ts) and says it in GET
// /api/config; an installed hub's list (`tether claude`) is login.test.ts's.
//
// Screenshots: test-artifacts/screenshots/sessions-empty-checkout-<phone|desktop>.png.
import { describe, expect, it } from 'vitest';
import { HubFeaturesSchema } from '@tether/shared';
import { seriousInBothThemes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the first session list of a checkout', () => {
  const world = useBrowserWorld({ hub: { install: 'checkout' } });

  it('GET /api/config says the hub runs from a checkout', async () => {
    const res = await fetch(`${world.hub.url}/api/config`, { headers: { authorization: `Bearer ${world.hub.token}` } });
    expect(res.status).toBe(200);
    expect(HubFeaturesSchema.parse(await res.json())).toEqual({ shell: false, install: 'checkout' });
  });

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`at ${viewport}: the command is the checkout's script, copyable`, async () => {
      const token = await world.hub.createToken(`first-run-${viewport}`);
      const page = await world.signedInPage(viewport, token);
      const empty = page.getByRole('region', { name: 'No sessions yet' });
      const copy = empty.getByRole('button', { name: 'Copy command: npm run tether -- claude' });
      await copy.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
      const text = (await empty.textContent()) ?? '';
      expect(text).toContain('in your tether checkout');
      expect(text).toContain('codex or gemini in place of claude starts the others');
      expect(text).toContain('run npm run tether -- daemon on a computer');
      // Nothing tells the person to run a `tether` they do not have.
      expect(text).not.toMatch(/(^|[^-] )tether (claude|codex|gemini|daemon)/);
      await saveScreenshot(page, { name: 'sessions-empty-checkout', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);
      await page.close();
    });
  }
});
