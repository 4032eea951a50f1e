// gemini.test.ts: a Gemini CLI session from the browser, against the real thing: a hub serving
// web/dist, a real `tether gemini` runner (desk in a PTY) driving the pinned Gemini CLI, whose model is
// the scripted fake Gemini API, and Debian's Chromium at 390×844 (touch) and 1280×800. The list names
// the agent; the chat is read from Gemini's session file; the shell command its BeforeTool hook asks
// about is approved in the sheet; the terminal is Gemini's own screen; axe finds nothing serious in
// the list, the chat, the sheet or the terminal, in either theme.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasToolResponse, shellCommand, startFakeGemini, text, userSays, when, type ScriptTurn } from '../fixtures/fake-gemini/index.ts';
import { saveScreenshot, UI_TIMEOUT_MS, useColorScheme, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY } from '../harness/gemini.ts';
import { startRunner } from '../harness/runner.ts';
import { stepLog } from '../harness/steps.ts';

/** A Gemini TUI is a 100 MB Node bundle: seconds to start on a loaded box. */
const GEMINI_UI_TIMEOUT_MS = 45_000;
const JOURNEY_TIMEOUT_MS = 150_000;

describe('a Gemini session from the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  async function startGemini(name: string, script: ScriptTurn[]) {
    const token = await world.hub.createToken(`gemini-${name}`);
    const fake = await startFakeGemini({ script });
    defer(() => fake.stop());
    const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, agent: 'gemini', cols: 110, rows: 35, args: ['-m', FAKE_GEMINI_MODEL] });
    defer(() => runner.stop());
    await runner.waitForScreen(GEMINI_READY, { timeoutMs: GEMINI_UI_TIMEOUT_MS });
    return { token, fake, sandbox, runner };
  }

  async function page(viewport: ViewportName, token: string): Promise<Page> {
    const signedIn = await world.signedInPage(viewport, token);
    defer(() => signedIn.close());
    return signedIn;
  }

  const chat = (tab: Page) => tab.getByRole('log', { name: 'Chat' });

  async function noSeriousAxe(tab: Page) {
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(tab, scheme);
      expect(seriousOnes(await axeViolations(tab))).toEqual([]);
    }
    await useColorScheme(tab, 'light');
  }

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the list names Gemini; a prompt gets its reply; its shell command is approved in the sheet; the terminal is Gemini's screen`, async () => {
      const step = stepLog(`gemini ${viewport}`);
      step('start');
      const { token, runner, sandbox } = await startGemini(viewport, [
        when(userSays(/hello gemini/), text('Hello from the fake Gemini model.')),
        when(userSays(/make the file/), shellCommand('touch made-by-gemini.txt && echo made', { description: 'Create made-by-gemini.txt' })),
        when(hasToolResponse('made'), text('The file is there now.')),
      ]);
      const tab = await page(viewport, token);
      step.watch(tab);
      // Idle once its SessionStart hook ran (the runner's start gate).
      step('Idle once its SessionStart hook ran');
      const row = tab.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`);
      await row.waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await expect(row.textContent()).resolves.toContain('Gemini · PTY');
      await saveScreenshot(tab, { name: 'gemini-list', viewport });
      await noSeriousAxe(tab);

      await row.click();
      await chat(tab).waitFor({ timeout: UI_TIMEOUT_MS });
      const box = tab.getByRole('textbox', { name: 'Message' });
      await expect(box.getAttribute('placeholder')).resolves.toBe('Message Gemini, or / for commands');
      await box.fill('hello gemini, are you there?');
      if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
      else await box.press('Enter');
      await chat(tab).getByText('Hello from the fake Gemini model.').waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await chat(tab).getByText('hello gemini, are you there?').waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: 'gemini-chat', viewport });
      await noSeriousAxe(tab);

      await box.fill('Please make the file');
      if (viewport === 'phone') await tab.getByRole('button', { name: 'Send' }).click();
      else await box.press('Enter');
      const sheet = tab.getByRole('dialog', { name: 'Run this command?' });
      await sheet.waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await expect(sheet.getByLabel('Command').textContent()).resolves.toContain('touch made-by-gemini.txt');
      await saveScreenshot(tab, { name: 'gemini-approval', viewport });
      await noSeriousAxe(tab);
      expect(existsSync(join(sandbox.cwd, 'made-by-gemini.txt'))).toBe(false);
      await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await chat(tab).getByText('The file is there now.').waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      expect(existsSync(join(sandbox.cwd, 'made-by-gemini.txt'))).toBe(true);
      await saveScreenshot(tab, { name: 'gemini-approved', viewport });

      await tab.getByRole('link', { name: 'Terminal', exact: true }).click();
      // Gemini's own screen: its reply above its input row.
      step('Gemini\'s own screen');
      await tab.locator('.xterm-rows').getByText(/The file is there now\./).first().waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: 'gemini-terminal', viewport });
      // Gemini draws its prompt rows grey on grey (xterm 248 on 240, 2.99:1); the web terminal raises
      // such a foreground to 4.5:1 (minimumContrastRatio), so the terminal passes too.
      step('Gemini draws its prompt rows grey on grey');
      await noSeriousAxe(tab);
    }, JOURNEY_TIMEOUT_MS);
  }
});
