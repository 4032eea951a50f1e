// prompt-queue.test.ts: the queue on the phone (issue 42). A session whose machine is offline (no
// runner connected): a prompt sent from the composer is held by the hub and shows as "Queued:
// machine offline" with Edit and Withdraw; it is edited in place, a second one withdrawn, and a
// reload shows the queue as the hub holds it. At 390×844 and 1280×800; axe in both themes.
//
//   composer ─prompt:send─► hub (no runner: held) ─ack─► "Queued: machine offline" [Edit] [Withdraw]
//   Edit → textarea → Save ─prompt:edit─► hub ─prompt:updated─► the new text;  Withdraw ─► gone
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SessionRegistrationSchema } from '@tether/shared';
import { saveScreenshot, UI_TIMEOUT_MS } from '../harness/browser.ts';
import { seriousInBothThemes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('the queue on the phone', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: a prompt for an offline machine is queued, edited and withdrawn, and still there after a reload`, async () => {
      const namespace = `queue-${viewport}`;
      const token = await world.hub.createToken(namespace);
      const { store } = world.hub;
      const now = Date.now();
      const machineId = randomUUID();
      await store.upsertMachine({ namespace, machine: { id: machineId, name: 'studio', os: 'linux', user: 'dev', home: '/home/dev' }, now });
      await store.setMachineOnline({ namespace, machineId, online: false, now });
      const sessionId = randomUUID();
      const registration = SessionRegistrationSchema.parse({ id: sessionId, machineId, cwd: '/home/dev/src/tether', launchKind: 'pty', status: 'idle', title: 'Fix the flaky test' });
      await store.registerSession({ namespace, registration, now });

      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Fix the flaky test/ }).click();
      await page.getByRole('heading', { name: 'Fix the flaky test', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });

      const composer = page.getByRole('textbox', { name: 'Message', exact: true });
      for (const text of ['Run the tests again', 'Then push it']) {
        await composer.fill(text);
        await page.getByRole('button', { name: 'Send' }).click();
        await page.getByText(text, { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      }
      const queued = page.getByText('Queued: machine offline');
      await expect.poll(() => queued.count(), { timeout: UI_TIMEOUT_MS }).toBe(2);
      await saveScreenshot(page, { name: 'queue-held', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);

      // Edit the first in place.
      await page.getByRole('button', { name: 'Edit' }).first().click();
      const editor = page.getByRole('textbox', { name: 'Edit the queued prompt' });
      await editor.fill('Run only the flaky test, three times');
      await saveScreenshot(page, { name: 'queue-editing', viewport });
      expect(await seriousInBothThemes(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Run only the flaky test, three times', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Withdraw the second: it leaves the chat and the hub's queue.
      await page.getByRole('button', { name: 'Withdraw' }).nth(1).click();
      await page.getByText('Then push it', { exact: true }).waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
      const stored = await store.listPrompts({ namespace, sessionId });
      expect(stored.map((p) => [p.text, p.status, p.reason])).toEqual([
        ['Run only the flaky test, three times', 'queued', null],
        ['Then push it', 'dropped', 'withdrawn'],
      ]);

      // A reload shows the queue as the hub holds it.
      await page.reload();
      await page.getByText('Run only the flaky test, three times', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => queued.count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
      await saveScreenshot(page, { name: 'queue-after-reload', viewport });
    }, 90_000);
  }
});
