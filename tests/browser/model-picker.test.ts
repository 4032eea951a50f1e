// model-picker.test.ts: switching a session's model from its header. A /cli socket plays the runner:
// it receives session:set-model and reports the new model the way the real runner does (after
// claude ran `/model`), and the header follows.
//
//   model chip ─► panel (opus / sonnet / haiku / free text) ─session:set-model─► hub ─► runner
//   runner ─session:update {model}─► hub ─session:updated─► header chip
import { describe, expect, it } from 'vitest';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';

describe('model picker', () => {
  const world = useBrowserWorld();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: shows the current model, switches to an alias and to a typed name`, async () => {
      const token = await world.hub.createToken(`model-${viewport}`);
      const { runner, sessionId } = await world.runnerWithSession(token, { title: 'Pick a model', status: 'idle', model: 'claude-sonnet-4-5-20250929' });
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Pick a model/ }).click();

      const chip = page.getByRole('button', { name: 'Model: sonnet 4.5. Change model or effort' });
      await chip.waitFor({ timeout: UI_TIMEOUT_MS });
      await chip.click();
      const panel = page.getByRole('dialog', { name: 'Switch model' });
      await panel.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(panel.getByRole('button', { name: 'sonnet' }).getAttribute('aria-pressed')).resolves.toBe('true');
      await saveScreenshot(page, { name: 'model-picker', viewport });

      const asked = nextEvent<{ sessionId: string; model: string }>(runner, 'session:set-model');
      await panel.getByRole('button', { name: 'opus' }).click();
      expect(await asked).toEqual({ sessionId, model: 'opus' });
      await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { model: 'opus' } })).ok).toBe(true);
      await page.getByRole('button', { name: 'Model: opus. Change model or effort' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Any other name, typed.
      await page.getByRole('button', { name: /^Model: / }).click();
      await panel.getByRole('textbox', { name: 'Other model name' }).fill('claude-haiku-4-5');
      const typed = nextEvent<{ sessionId: string; model: string }>(runner, 'session:set-model');
      await panel.getByRole('button', { name: 'Switch' }).click();
      expect(await typed).toEqual({ sessionId, model: 'claude-haiku-4-5' });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { model: 'claude-haiku-4-5' } })).ok).toBe(true);
      await page.getByRole('button', { name: 'Model: haiku 4.5. Change model or effort' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.close();
    });
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: shows claude's effort next to the model and changes it`, async () => {
      const token = await world.hub.createToken(`effort-${viewport}`);
      const { runner, sessionId } = await world.runnerWithSession(token, { title: 'Think harder', status: 'idle', model: 'opus' });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { effort: 'high' } })).ok).toBe(true);
      const page = await world.signedInPage(viewport, token);
      await page.getByRole('link', { name: /Think harder/ }).click();
      const chip = page.getByRole('button', { name: 'Model: opus · high. Change model or effort' });
      await chip.waitFor({ timeout: UI_TIMEOUT_MS });
      await chip.click();
      const panel = page.getByRole('dialog', { name: 'Switch model' });
      const levels = panel.getByRole('group', { name: 'Effort' });
      await expect(levels.getByRole('button', { name: 'high', exact: true }).getAttribute('aria-pressed')).resolves.toBe('true');
      await saveScreenshot(page, { name: 'effort-picker', viewport });
      const asked = nextEvent<{ sessionId: string; level: string }>(runner, 'session:set-effort');
      await levels.getByRole('button', { name: 'low', exact: true }).click();
      expect(await asked).toEqual({ sessionId, level: 'low' });
      await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { effort: 'low' } })).ok).toBe(true);
      await page.getByRole('button', { name: 'Model: opus · low. Change model or effort' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.close();
    });
  }
});
