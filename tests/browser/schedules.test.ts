// schedules.test.ts: the schedules screen (issue 42) at a phone (390×844) and a desktop (1280×800):
// Account ▸ Schedules lists a schedule with its next run and a missed last run; the editor previews
// the next runs of a cron, says in the hub's words why a cron that never fires, one more often than
// every five minutes or a time in the past cannot be a schedule, and makes one the hub keeps. axe in
// both themes; screenshots test-artifacts/screenshots/schedules-{list,editor}-<viewport>[-dark].png.
import { describe, expect, it } from 'vitest';
import type { Schedule } from '@tether/shared';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck } from '../harness/hub.ts';

describe('the schedules screen', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const satisfies readonly ViewportName[]) {
    it(`at ${viewport}: lists, previews, refuses bad timing in words and makes a schedule`, async () => {
      const namespace = `schedules-${viewport}`;
      const token = await world.hub.createToken(namespace, 'phone');
      const { sessionId } = await world.runnerWithSession(token, { title: 'Fix the flaky login test', status: 'idle' });
      // One schedule made on another device, whose last run was missed while the hub was down.
      const other = await world.connect({ nsp: '/web', token });
      const made = await emitAck<{ schedule: Schedule }>(other, 'schedule:create', {
        id: crypto.randomUUID(),
        target: { kind: 'session', sessionId },
        when: { kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'Europe/Berlin' },
        prompt: 'Pull main, run the test suite and fix what fails.',
      });
      if (!made.ok) throw new Error(made.error);
      const dueAt = Date.now() - 3 * 3_600_000;
      await world.hub.store.recordScheduleRun({ namespace, id: made.schedule.id, run: { dueAt, at: dueAt + 2 * 3_600_000, outcome: 'sent', missed: true, sessionId, detail: null }, pause: false, now: Date.now() });

      const page = await world.signedInPage(viewport, token);
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('menuitem', { name: 'Schedules' }).click();
      await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
      const card = page.getByRole('list', { name: 'Schedules' }).getByRole('listitem');
      await card.getByText('Pull main, run the test suite').waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await card.textContent()).toMatch(/Cron 0 9 \* \* 1-5 · Europe\/Berlin.*In “Fix the flaky login test”.*Next: .*Missed.*Sent/);
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'schedules-list', viewport })).toEqual([]);

      await page.getByRole('button', { name: 'New schedule' }).click();
      const editor = page.getByRole('form', { name: 'New schedule' });
      await editor.getByRole('radio', { name: 'Repeat (cron)' }).check();
      const cron = editor.getByLabel('Cron (minute hour day month weekday)');
      const refusal = editor.getByRole('alert');
      await cron.fill('*/2 * * * *');
      expect(await refusal.textContent({ timeout: UI_TIMEOUT_MS })).toContain('runs more often than every 5 minutes');
      await cron.fill('0 9 30 2 *');
      expect(await refusal.textContent({ timeout: UI_TIMEOUT_MS })).toBe('it never fires: no day 30 in feb');
      await cron.fill('30 7 * * 1-5');
      await editor.getByLabel('Time zone').fill('America/New_York');
      const runs = editor.getByRole('list').getByRole('listitem');
      await runs.nth(4).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await runs.count()).toBe(5);
      await editor.getByLabel('Prompt').fill('Summarise what changed overnight.');
      await editor.getByRole('radio', { name: 'Skip it' }).check();
      expect(await screenshotsAndSeriousInBothThemes(page, { name: 'schedules-editor', viewport })).toEqual([]);

      // Once, at a time already past: refused before anything is sent.
      await editor.getByRole('radio', { name: 'Once', exact: true }).check();
      await editor.getByLabel('Date and time').fill('2020-01-01T09:00');
      expect(await refusal.textContent({ timeout: UI_TIMEOUT_MS })).toContain('in the past');
      expect(await editor.getByRole('button', { name: 'Schedule' }).isDisabled()).toBe(true);
      await editor.getByRole('radio', { name: 'Repeat (cron)' }).check();
      await editor.getByRole('button', { name: 'Schedule' }).click();

      await card.nth(1).getByText('Summarise what changed overnight.').waitFor({ timeout: UI_TIMEOUT_MS });
      const kept = (await world.hub.store.listSchedules({ namespace })).find((s) => s.prompt === 'Summarise what changed overnight.');
      expect(kept).toMatchObject({ when: { kind: 'cron', expression: '30 7 * * 1-5', timeZone: 'America/New_York' }, missed: 'skip', target: { kind: 'session', sessionId }, createdBy: 'phone' });
      await page.close();
    });
  }
});
