// codex.test.ts: a Codex session from the browser, against the real thing: a hub serving web/dist, a
// real `tether codex` runner (desk in a PTY) driving the pinned Codex, whose model is the scripted
// fake Responses API, and Debian's Chromium at 390×844 (touch) and 1280×800. The journey every agent
// walks (agent-journey.ts: the list, the chat rebuilt from Codex's rollout, the sheet, Codex's own
// screen, axe); then the new-session form and a headless Codex started from the phone.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { execCommand, hasToolOutput, startFakeOpenAI, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { seriousInBothThemes } from '../harness/axe.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { CODEX_READY, codexBin, createCodexSandbox } from '../harness/codex.ts';
import { startDaemon } from '../harness/daemon.ts';
import { emitAck } from '../harness/hub.ts';
import { stepLog } from '../harness/steps.ts';
import { agentJourney, journeyTurns } from './agent-journey.ts';

const CODEX_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 90_000;

describe('a Codex session from the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  agentJourney({
    world,
    defer,
    agent: {
      agent: 'codex',
      display: 'Codex',
      listed: 'Codex · PTY',
      uiTimeoutMs: CODEX_UI_TIMEOUT_MS,
      journeyTimeoutMs: JOURNEY_TIMEOUT_MS,
      async start(script) {
        const fake = await startFakeOpenAI({
          script: journeyTurns(script, { when, userSays, text, command: (command, justification) => execCommand(command, { justification, callId: 'call_browser1' }), ran: hasToolOutput }),
        });
        return { fake, sandbox: createCodexSandbox({ fakeApiUrl: fake.url }), ready: CODEX_READY };
      },
    },
  });

  async function page(viewport: ViewportName, token: string): Promise<Page> {
    const signedIn = await world.signedInPage(viewport, token);
    defer(() => signedIn.close());
    return signedIn;
  }

  const chat = (tab: Page) => tab.getByRole('log', { name: 'Chat' });

  it('phone: the new-session form offers Codex on a machine that has it; a Codex PTY session starts from it', async () => {
    const step = stepLog('codex: phone: the new-session form offers Codex on a mach');
    step('start');
    const token = await world.hub.createToken('codex-form');
    const fake = await startFakeOpenAI({ script: [text('spawned codex says hi')] });
    defer(() => fake.stop());
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: { url: world.hub.url, token }, sandbox, name: 'codex-box', env: { TETHER_CODEX_BIN: codexBin() } });
    defer(() => daemon.stop());
    const tab = await page('phone', token);
    step.watch(tab);
    await tab.getByRole('link', { name: 'New session' }).click();
    const form = tab.getByRole('form', { name: 'New session' });
    await form.getByRole('radio', { name: /codex-box/ }).check();
    await form.getByRole('textbox', { name: 'Directory' }).fill(sandbox.cwd);
    await form.getByRole('radio', { name: /^Codex\b/ }).check();
    // Codex is headless (chat only) unless the PTY box is ticked, as claude is. Headless, its own two
    // collaboration modes are offered (claude's others are not); in a PTY none (not driven from here).
    step('Codex is headless');
    const pty = form.getByRole('checkbox', { name: /PTY \(live terminal\)/ });
    await expect(pty.isChecked()).resolves.toBe(false);
    await expect(pty.isDisabled()).resolves.toBe(false);
    await expect(form.getByLabel('Permissions').locator('option').allTextContents()).resolves.toEqual(['Ask for approvals', 'Plan first']);
    await pty.check();
    await expect(form.getByLabel('Permissions').count()).resolves.toBe(0);
    await saveScreenshot(tab, { name: 'codex-new-session', viewport: 'phone' });
    // The form with its agent choice, in both themes: no serious or critical axe finding.
    step('The form with its agent choice, in both themes');
    expect(await seriousInBothThemes(tab)).toEqual([]);
    await form.getByRole('button', { name: 'Start session' }).click();
    await tab.waitForURL(/\/sessions\/[0-9a-f-]{36}\/terminal$/, { timeout: CODEX_UI_TIMEOUT_MS });
    await tab.locator('.xterm-rows').getByText(/Ask Codex|OpenAI Codex/).first().waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
    await saveScreenshot(tab, { name: 'codex-new-session-terminal', viewport: 'phone' });
    // End from the header: the confirmation names Codex, how it leaves and how the desk resumes it.
    step('End from the header');
    await tab.getByRole('button', { name: 'End session', exact: true }).click();
    const endDialog = tab.getByRole('alertdialog', { name: 'End this session?' });
    await endDialog.waitFor({ timeout: UI_TIMEOUT_MS });
    await endDialog.getByText('Codex exits as it does at the desk (Ctrl-C twice). The chat and the last screen stay here.', { exact: true }).waitFor();
    await expect(endDialog.textContent()).resolves.not.toMatch(/claude/i);
    await saveScreenshot(tab, { name: 'codex-end-dialog', viewport: 'phone' });
    await endDialog.getByRole('button', { name: 'End session' }).click();
    await endDialog.waitFor({ state: 'detached', timeout: CODEX_UI_TIMEOUT_MS });
    await tab.locator('.session-header').getByRole('button', { name: 'Resume' }).waitFor({ timeout: UI_TIMEOUT_MS });
  }, JOURNEY_TIMEOUT_MS);

  it('desktop: a headless Codex session from the form is chat only; its command is approved in the sheet', async () => {
    const step = stepLog('codex: desktop: a headless Codex session from the form is');
    step('start');
    const token = await world.hub.createToken('codex-headless');
    const fake = await startFakeOpenAI({
      script: [
        when(userSays(/list it/), execCommand('ls -a', { justification: 'Look at the project', callId: 'call_headless1' })),
        when(hasToolOutput(), text('Listed the project, nothing else there.')),
      ],
    });
    defer(() => fake.stop());
    const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const daemon = await startDaemon({ hub: { url: world.hub.url, token }, sandbox, name: 'codex-desk', env: { TETHER_CODEX_BIN: codexBin() } });
    defer(() => daemon.stop());
    const tab = await page('desktop', token);
    step.watch(tab);
    await tab.getByRole('link', { name: 'New session' }).click();
    const form = tab.getByRole('form', { name: 'New session' });
    await form.getByRole('radio', { name: /codex-desk/ }).check();
    await form.getByRole('textbox', { name: 'Directory' }).fill(sandbox.cwd);
    await form.getByRole('radio', { name: /^Codex\b/ }).check();
    await form.getByRole('button', { name: 'Start session' }).click();
    await tab.waitForURL(/\/sessions\/[0-9a-f-]{36}(\/chat)?$/, { timeout: CODEX_UI_TIMEOUT_MS });
    await chat(tab).waitFor({ timeout: UI_TIMEOUT_MS });
    // Chat only: no terminal to open.
    step('Chat only');
    await expect(tab.getByRole('link', { name: 'Terminal', exact: true }).count()).resolves.toBe(0);
    const box = tab.getByRole('textbox', { name: 'Message' });
    await expect(box.getAttribute('placeholder')).resolves.toBe('Message Codex, or / for commands');
    await box.fill('Please list it');
    await box.press('Enter');
    const sheet = tab.getByRole('dialog', { name: 'Run this command?' });
    await sheet.waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
    await expect(sheet.getByLabel('Command').textContent()).resolves.toContain('ls -a');
    await saveScreenshot(tab, { name: 'codex-headless-approval', viewport: 'desktop' });
    await sheet.getByRole('button', { name: 'Allow', exact: true }).click();
    await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    await chat(tab).getByText('Listed the project, nothing else there.').waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
    await saveScreenshot(tab, { name: 'codex-headless-chat', viewport: 'desktop' });
    // Its model is switched from here (the next turn carries it); no claude aliases are offered.
    step('Its model is switched from here');
    await tab.getByRole('button', { name: /^Model: / }).click();
    const panel = tab.getByRole('dialog', { name: 'Switch model' });
    await panel.waitFor({ timeout: UI_TIMEOUT_MS });
    await expect(panel.getByRole('group', { name: 'Models' }).count()).resolves.toBe(0);
    await panel.getByRole('textbox', { name: 'Model name' }).fill('gpt-fake-large');
    await saveScreenshot(tab, { name: 'codex-headless-model', viewport: 'desktop' });
    expect(await seriousInBothThemes(tab)).toEqual([]);
    await panel.getByRole('button', { name: 'Switch' }).click();
    await tab.getByRole('button', { name: /^Model: gpt-fake-large/ }).waitFor({ timeout: UI_TIMEOUT_MS });
    // And how hard its next turn thinks: Codex's levels (its highest is xhigh, no "max").
    step('And how hard its next turn thinks');
    await tab.getByRole('button', { name: /^Model: / }).click();
    const efforts = tab.getByRole('dialog', { name: 'Switch model' }).getByRole('group', { name: 'Effort' });
    await expect(efforts.getByRole('button').allTextContents()).resolves.toEqual(['low', 'medium', 'high', 'xhigh']);
    await efforts.getByRole('button', { name: 'xhigh' }).click();
    await tab.getByRole('button', { name: /^Model: gpt-fake-large · xhigh\./ }).waitFor({ timeout: UI_TIMEOUT_MS });
    const sessionId = /\/sessions\/([0-9a-f-]{36})/.exec(tab.url())![1]!;
    const phone = await world.connect({ nsp: '/web', token });
    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
  }, JOURNEY_TIMEOUT_MS);
});
