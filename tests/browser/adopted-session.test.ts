// adopted-session.test.ts: a session tether attached to rather than started (a claude --bg session,
// capabilities.adopted) says so in its header, "Adopted: no hook approvals", and explains on tap what
// that means; its permission question arrives as a dialog card with claude's own options; End asks
// to detach and says the session runs on in claude's pool. A real hub;
// a /cli socket plays the attached runner.
//
//   runner ─session:register {capabilities.adopted}─► hub ─► header chip ─tap─► explanation
//   runner ─approval:request {kind: dialog}─► sheet: claude's Bash dialog, its numbered options
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALOG_TOOL_NAME } from '@tether/shared';
import { agentFor } from '../../cli/src/agents/index.ts';
import { emitAck } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, useColorScheme } from '../harness/browser.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

const BASH_DIALOG = {
  title: 'Bash command',
  text: ['Bash command', '', 'touch adopted-ran', 'make a file', '', 'Do you want to proceed?'],
  options: [
    { key: '1', label: 'Yes' },
    { key: '2', label: 'Yes, and always allow access to /home/dev/src/app from this project' },
    { key: '3', label: 'No' },
  ],
};

describe('an adopted claude background session', () => {
  const world = useBrowserWorld();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: the header says it has no hook approvals and explains; its permission question is a dialog card; light and dark`, async () => {
      const token = await world.hub.createToken(`adopted-${viewport}`);
      const capabilities = agentFor('claude').background!.capabilities('f35b2b97');
      const { runner, sessionId } = await world.runnerWithSession(token, { launchKind: 'pty', status: 'idle', cwd: '/home/dev/src/app', title: 'Background refactor', capabilities, deskAttached: false });
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Background refactor/ }).click();
      await page.getByRole('heading', { name: 'Background refactor', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });

      const chip = page.getByRole('button', { name: `${capabilities.adopted!.note}. What this means` });
      await chip.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(chip.textContent()).resolves.toBe('Adopted: no hook approvals');
      await saveScreenshot(page, { name: 'adopted-header', viewport });
      await chip.click();
      const explained = page.getByRole('dialog', { name: capabilities.adopted!.note });
      await explained.getByText('no hook approvals and no "allow for this session"', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await saveScreenshot(page, { name: `adopted-explained-${scheme}`, viewport });
        expect(seriousOnes(await axeViolations(page))).toEqual([]);
      }
      await useColorScheme(page, 'light');
      await page.keyboard.press('Escape');
      await explained.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });

      const requested = await emitAck(runner, 'approval:request', { id: randomUUID(), sessionId, kind: 'dialog', toolName: DIALOG_TOOL_NAME, toolInput: BASH_DIALOG, toolUseId: null, createdAt: Date.now() });
      expect(requested.ok).toBe(true);
      await page.getByText('touch adopted-ran').first().waitFor({ timeout: UI_TIMEOUT_MS });
      await page.getByRole('button', { name: /^Yes$/ }).first().waitFor({ timeout: UI_TIMEOUT_MS });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await saveScreenshot(page, { name: `adopted-dialog-${scheme}`, viewport });
        expect(seriousOnes(await axeViolations(page))).toEqual([]);
      }

      // End detaches, and says so: the session runs on in claude's pool.
      await page.getByRole('button', { name: /^Yes$/ }).first().click();
      await page.getByRole('button', { name: 'End session' }).click();
      const detach = page.getByRole('alertdialog', { name: 'Detach from this session?' });
      await detach.getByText("tether detaches from background session f35b2b97: it keeps running in Claude's own pool", { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      await detach.getByText('Adopt it again with tether adopt f35b2b97', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
      await detach.getByRole('button', { name: 'Detach' }).waitFor({ timeout: UI_TIMEOUT_MS });
      for (const scheme of ['light', 'dark'] as const) {
        await useColorScheme(page, scheme);
        await saveScreenshot(page, { name: `adopted-detach-${scheme}`, viewport });
        expect(seriousOnes(await axeViolations(page))).toEqual([]);
      }
      await page.close();
    });
  }
});
