// usage-limit.test.ts: a session at its agent's usage limit, as a phone and a desktop see it. A real
// hub; a /cli socket plays the runner and reports the limit (session:update {limit}).
//
//   runner ─session:update {limit: {resetsAt}}─► hub ─► list badge "limit · resets 15:00"
//                                                     └► session banner "Waiting for the limit to reset at 15:00"
//   banner switch "Continue at the reset" ─session:limit-continue─► hub ─► "tether sends “go on” after the reset."
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('usage limit: the banner on the session and the list', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: the list and the session show when the limit resets; the person switches the continue on with their prompt`, async () => {
      const token = await world.hub.createToken(`limit-${viewport}`);
      // Codex does not wait out its limit: what tether does at the reset is the person's choice.
      const { runner, sessionId } = await world.runnerWithSession(token, { agent: 'codex', launchKind: 'pty', status: 'idle', cwd: '/home/dev/src/tether', title: 'Port the parser' });
      // A reset two hours ahead at a whole minute, so the clock the page shows is the one checked.
      const resetsAt = Math.ceil((Date.now() + 2 * 3600_000) / 60_000) * 60_000;
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { limit: { resetsAt } } })).ok).toBe(true);
      const page = await world.signedInPage(viewport, token);
      const clock = await page.evaluate((at) => new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }), resetsAt);

      const row = page.getByRole('link', { name: /Port the parser/ });
      await row.getByText(`limit · resets ${clock}`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'limit-list', viewport })).toEqual([]);

      await row.click();
      const banner = page.getByRole('region', { name: 'Usage limit' });
      await banner.getByText(`Waiting for the limit to reset at ${clock}`).waitFor({ timeout: UI_TIMEOUT_MS });
      await banner.getByText('Nothing happens by itself after the reset.').waitFor({ timeout: UI_TIMEOUT_MS });
      const prompt = banner.getByRole('textbox', { name: 'Prompt sent at the reset' });
      await prompt.fill('go on with the parser');
      await banner.getByRole('checkbox', { name: 'Continue at the reset' }).check();
      await banner.getByText('tether sends “go on with the parser” after the reset.').waitFor({ timeout: UI_TIMEOUT_MS });
      const stored = await world.hub.store.getSession({ namespace: `limit-${viewport}`, sessionId });
      expect(stored?.limitContinue).toEqual({ on: true, prompt: 'go on with the parser' });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'limit-banner', viewport })).toEqual([]);

      // The agent answered again: the banner goes.
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { limit: null } })).ok).toBe(true);
      await banner.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
    });
  }
});
