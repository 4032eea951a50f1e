// codex.test.ts: a Codex session from the browser, against the real thing: a hub serving web/dist, a
// real `tether codex` runner (desk in a PTY) driving the pinned Codex, whose model is the scripted
// fake Responses API, and Debian's Chromium at 390×844 (touch) and 1280×800. The list names the
// agent; the chat is rebuilt from Codex's rollout; the command Codex asks about is approved in the
// sheet; the terminal is Codex's own screen.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { execCommand, hasToolOutput, startFakeOpenAI, text, userSays, when, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import { saveScreenshot, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { CODEX_READY, createCodexSandbox } from '../harness/codex.ts';
import { startRunner } from '../harness/runner.ts';

const CODEX_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 90_000;

describe('a Codex session from the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  async function startCodex(name: string, script: ScriptTurn[]) {
    const token = await world.hub.createToken(`codex-${name}`);
    const fake = await startFakeOpenAI({ script });
    defer(() => fake.stop());
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, agent: 'codex', cols: 110, rows: 35 });
    defer(() => runner.stop());
    await runner.waitForScreen(CODEX_READY, { timeoutMs: CODEX_UI_TIMEOUT_MS });
    return { token, fake, sandbox, runner };
  }

  async function page(viewport: ViewportName, token: string): Promise<Page> {
    const signedIn = await world.signedInPage(viewport, token);
    defer(() => signedIn.close());
    return signedIn;
  }

  const chat = (tab: Page) => tab.getByRole('log', { name: 'Chat' });

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the list names Codex; a prompt gets Codex's reply; its command is approved in the sheet; the terminal is Codex's screen`, async () => {
      const { token, runner, sandbox } = await startCodex(viewport, [
        when(userSays(/hello codex/), text('Hello from the fake Codex model.')),
        when(userSays(/make the file/), execCommand('touch made-by-codex.txt && echo made', { justification: 'Create made-by-codex.txt', callId: 'call_browser1' })),
        when(hasToolOutput('made'), text('The file is there now.')),
      ]);
      const tab = await page(viewport, token);
      const row = tab.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`);
      await row.waitFor({ timeout: UI_TIMEOUT_MS });
      await expect(row.textContent()).resolves.toContain('Codex · PTY');
      await saveScreenshot(tab, { name: 'codex-list', viewport });

      await row.click();
      await chat(tab).waitFor({ timeout: UI_TIMEOUT_MS });
      const box = tab.getByRole('textbox', { name: 'Message' });
      await expect(box.getAttribute('placeholder')).resolves.toBe('Message Codex');
      await box.fill('hello codex, are you there?');
      if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
      else await box.press('Enter');
      await chat(tab).getByText('Hello from the fake Codex model.').waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      await chat(tab).getByText('hello codex, are you there?').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: 'codex-chat', viewport });

      await box.fill('Please make the file');
      if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
      else await box.press('Enter');
      const sheet = tab.getByRole('dialog', { name: 'Run this command?' });
      await sheet.waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      await expect(sheet.getByLabel('Command').textContent()).resolves.toContain('touch made-by-codex.txt');
      await saveScreenshot(tab, { name: 'codex-approval', viewport });
      expect(existsSync(join(sandbox.cwd, 'made-by-codex.txt'))).toBe(false);
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await chat(tab).getByText('The file is there now.').waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      expect(existsSync(join(sandbox.cwd, 'made-by-codex.txt'))).toBe(true);
      await saveScreenshot(tab, { name: 'codex-approved', viewport });

      await tab.getByRole('link', { name: 'Terminal', exact: true }).click();
      // Codex's own screen: its reply and its input row.
      await tab.locator('.xterm-rows').getByText(/The file is there now\./).first().waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: 'codex-terminal', viewport });
    }, JOURNEY_TIMEOUT_MS);
  }
});
