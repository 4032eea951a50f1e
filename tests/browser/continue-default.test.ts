// continue-default.test.ts: the namespace's continue-at-reset default (issue 42, item 1: "or by
// default in settings") at a phone (390×844) and a desktop (1280×800), axe in both themes;
// screenshots test-artifacts/screenshots/continue-default-{panel,banner}-<viewport>[-dark].png.
//
//   Schedules → Unattended work → "Continue sessions after a usage limit resets" + prompt ─unattended:set─► hub (store)
//   a session at its limit with no choice of its own ─► banner "tether sends “…” after the reset (your default …)"
import { describe, expect, it } from 'vitest';
import { emitAck } from '../harness/hub.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the continue-at-reset default on the schedules screen and a session that follows it', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: switch the default on with a prompt; the banner of a session with no choice says it continues because of it`, async () => {
      const namespace = `continue-default-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { runner, sessionId } = await world.runnerWithSession(token, { agent: 'codex', launchKind: 'pty', status: 'idle', cwd: '/home/dev/src/tether', title: 'Port the parser' });
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Schedules' }).click();
      const panel = page.getByRole('group', { name: 'At a usage limit' });
      const toggle = panel.getByRole('switch', { name: 'Continue sessions after a usage limit resets' });
      await toggle.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await toggle.isChecked()).toBe(false);
      await panel.getByText('Sessions wait at their usage limit until you send a prompt', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });

      await toggle.check();
      await panel.getByText('A session stopped at its usage limit gets “continue” after the reset', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      await panel.getByRole('textbox', { name: 'Prompt sent at the reset' }).fill('  go on with the parser ');
      await panel.getByRole('button', { name: 'Save prompt' }).click();
      await panel.getByText('gets “go on with the parser” after the reset', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await world.hub.store.getUnattendedGuard({ namespace, defaultCap: 20, defaultContinue: false })).limitContinue).toEqual({ on: true, prompt: 'go on with the parser' });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'continue-default-panel', viewport })).toEqual([]);

      // The session has no choice of its own: its banner tells what the default will do, and its switch shows it.
      const resetsAt = Math.ceil((Date.now() + 2 * 3600_000) / 60_000) * 60_000;
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { limit: { resetsAt } } })).ok).toBe(true);
      await page.goBack();
      await page.getByRole('link', { name: /Port the parser/ }).click();
      const banner = page.getByRole('region', { name: 'Usage limit' });
      await banner.getByText('tether sends “go on with the parser” after the reset (your default for sessions at a limit, in Schedules).').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await banner.getByRole('checkbox', { name: 'Continue at the reset' }).isChecked()).toBe(true);
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'continue-default-banner', viewport })).toEqual([]);

      // The session's own choice wins, and the banner no longer credits the default.
      await banner.getByRole('checkbox', { name: 'Continue at the reset' }).uncheck();
      await banner.getByText('Nothing happens by itself after the reset.').waitFor({ timeout: UI_TIMEOUT_MS });
      expect((await world.hub.store.getSession({ namespace, sessionId }))?.limitContinue).toEqual({ on: false, prompt: 'go on with the parser' });
    });
  }
});
