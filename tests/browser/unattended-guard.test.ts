// unattended-guard.test.ts: the guard on unattended work (issue 42, item 5) at a phone (390×844) and
// a desktop (1280×800), axe in both themes; screenshots test-artifacts/screenshots/
// unattended-{paused,cap,held}-<viewport>[-dark].png.
//
//   schedules screen ─ "Pause everything unattended" ─unattended:set─► hub ─► Paused (store too)
//   "Runs a day at most" 1, one run counted today ─► Cap reached
//   a session whose continue the guard held ─► its limit banner says so
import { describe, expect, it } from 'vitest';
import { guardDay } from '@tether/shared';
import { emitAck } from '../harness/hub.ts';
import { UI_TIMEOUT_MS } from '../harness/browser.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the unattended guard on the schedules screen and a held continue', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: pause everything unattended, the day's cap reached, a continue the guard held`, async () => {
      const namespace = `guard-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { runner, sessionId } = await world.runnerWithSession(token, { agent: 'codex', launchKind: 'pty', status: 'idle', cwd: '/home/dev/src/tether', title: 'Port the parser' });
      // One unattended run already went today.
      expect((await world.hub.store.claimUnattendedRun({ namespace, day: guardDay(Date.now()), defaultCap: 20, defaultContinue: false, now: Date.now() })).kind).toBe('counted');
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Schedules' }).click();
      const guard = page.getByRole('region', { name: 'Unattended work' });
      await guard.getByText('1 of 20 unattended runs today').waitFor({ timeout: UI_TIMEOUT_MS });
      await guard.getByText('Running', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

      await guard.getByRole('button', { name: 'Pause everything unattended' }).click();
      await guard.getByText('Paused', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await guard.getByRole('button', { name: 'Resume unattended work' }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await world.hub.store.getUnattendedGuard({ namespace, defaultCap: 20, defaultContinue: false })).toMatchObject({ paused: true });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'unattended-paused', viewport })).toEqual([]);
      await guard.getByRole('button', { name: 'Resume unattended work' }).click();
      await guard.getByText('Running', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

      await guard.getByRole('spinbutton', { name: 'Runs a day at most' }).fill('1');
      await guard.getByRole('button', { name: 'Save', exact: true }).click();
      await guard.getByText('Cap reached', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await guard.getByText('No more unattended runs today: 1 of 1 ran.', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await world.hub.store.getUnattendedGuard({ namespace, defaultCap: 20, defaultContinue: false })).toMatchObject({ paused: false, dailyCap: 1 });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'unattended-cap', viewport })).toEqual([]);

      // The session's continue at its reset met the cap: claimed for that reset and held, as the hub records it.
      const resetsAt = Date.now() - 60_000;
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { limit: { resetsAt } } })).ok).toBe(true);
      expect(await world.hub.store.claimLimitContinue({ namespace, sessionId, resetsAt })).toBe(true);
      expect(await world.hub.store.holdLimitContinue({ namespace, sessionId, resetsAt, held: 'cap', now: Date.now() })).not.toBeNull();
      await page.goBack();
      await page.getByRole('link', { name: /Port the parser/ }).click();
      const banner = page.getByRole('region', { name: 'Usage limit' });
      await banner.getByText("tether did not continue it: the day's cap on unattended runs was reached. Send a prompt to go on.").waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'unattended-held', viewport })).toEqual([]);
    });
  }
});
