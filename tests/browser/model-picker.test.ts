// model-picker.test.ts: switching a session's model from its header. A /cli socket plays the runner:
// it receives session:set-model and reports the new model the way the real runner does (after
// claude ran `/model`), and the header follows.
//
//   model chip ─► panel (opus / sonnet / haiku / free text) ─session:set-model─► hub ─► runner
//   runner ─session:update {model}─► hub ─session:updated─► header chip
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { connectSocket, emitAck, nextEvent, startHub, type HubHandle } from '../harness/hub.ts';
import { launchBrowser, loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type BrowserHandle, type ViewportName } from '../harness/browser.ts';

const WEB_DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'web', 'dist');

describe('model picker', () => {
  let hub: HubHandle;
  let browser: BrowserHandle;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error('web/dist is missing: build the web app first (cd web && bun run build).');
    hub = await startHub({ webDist: WEB_DIST });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await browser?.stop();
    await hub?.stop();
  });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: shows the current model, switches to an alias and to a typed name`, async () => {
      const token = await hub.createToken(`model-${viewport}`);
      const runner = await connectSocket({ url: hub.url, nsp: '/cli', token });
      sockets.push(runner);
      const sessionId = randomUUID();
      const registered = await emitAck(runner, 'session:register', {
        id: sessionId,
        cwd: '/home/dev/src/tether',
        launchKind: 'pty',
        title: 'Pick a model',
        status: 'idle',
        model: 'claude-sonnet-4-5-20250929',
      });
      expect(registered.ok).toBe(true);
      const page = await browser.newPage({ viewport });
      await loginWithQrLink(page, { hubUrl: hub.url, token });
      await page.getByRole('link', { name: /Pick a model/ }).click();

      const chip = page.getByRole('button', { name: 'Model: sonnet 4.5. Change model' });
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
      await page.getByRole('button', { name: 'Model: opus. Change model' }).waitFor({ timeout: UI_TIMEOUT_MS });

      // Any other name, typed.
      await page.getByRole('button', { name: /^Model: / }).click();
      await panel.getByRole('textbox', { name: 'Other model name' }).fill('claude-haiku-4-5');
      const typed = nextEvent<{ sessionId: string; model: string }>(runner, 'session:set-model');
      await panel.getByRole('button', { name: 'Switch' }).click();
      expect(await typed).toEqual({ sessionId, model: 'claude-haiku-4-5' });
      expect((await emitAck(runner, 'session:update', { sessionId, patch: { model: 'claude-haiku-4-5' } })).ok).toBe(true);
      await page.getByRole('button', { name: 'Model: haiku 4.5. Change model' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await page.close();
    });
  }
});
