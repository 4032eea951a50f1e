// terminal-jump.test.ts: "Show in terminal" on a tool card, against the real thing: a hub serving
// web/dist, a real `tether claude` runner driving the pinned claude (scripted fake Messages API),
// Chromium at 390×844 and 1280×800. claude runs three Bash calls with long notes between them, so
// each call's screen has scrolled far into the history by the time the turn ends.
//
//   card ─click─► /sessions/:id/terminal?run&start&end ─subscribe─► snapshot (+ the runner's marks)
//        ─► the row of the second call's moment ─► scrolled into view, highlighted
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasToolResult, reply, startFakeAnthropic, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { saveScreenshot, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startRunner } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';

/** A real claude turn of four model requests on a loaded box. */
const CLAUDE_UI_TIMEOUT_MS = 45_000;
const JOURNEY_TIMEOUT_MS = 120_000;

/** A note of `n` paragraphs: taller than the terminal, so the call before it scrolls away. */
const note = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name} paragraph ${i + 1}.`).join('\n\n');

const CALLS = ['first-call', 'second-call', 'third-call'] as const;

describe('show in terminal', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const satisfies ViewportName[]) {
    it(`${viewport}: three Bash calls; the second card opens the terminal scrolled to that call`, async () => {
      const token = await world.hub.createToken(`jump-${viewport}`);
      const fake = await startFakeAnthropic({
        script: [
          when(userSays(/three commands/), reply(text(note('Opening', 3)), toolUse('Bash', { command: `echo ${CALLS[0]}`, description: 'First' }, { id: 'toolu_jump_1' }))),
          when(hasToolResult({ id: 'toolu_jump_1' }), reply(text(note('Middle', 30)), toolUse('Bash', { command: `echo ${CALLS[1]}`, description: 'Second' }, { id: 'toolu_jump_2' }))),
          when(hasToolResult({ id: 'toolu_jump_2' }), reply(text(note('Later', 30)), toolUse('Bash', { command: `echo ${CALLS[2]}`, description: 'Third' }, { id: 'toolu_jump_3' }))),
          when(hasToolResult({ id: 'toolu_jump_3' }), text(`${note('Closing', 30)}\n\nAll three done.`)),
        ],
      });
      defer(() => fake.stop());
      const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
      defer(() => sandbox.stop());
      // Bash allowed by a settings rule: this journey is about the terminal, not approvals.
      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, args: [...MANUAL_MODE, '--allowedTools', 'Bash'] });
      defer(() => runner.stop());
      await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });

      const page: Page = await world.signedInPage(viewport, token);
      defer(() => page.close());
      await page.locator(`a[data-session-id="${runner.sessionId}"]`).click();
      const chat = page.getByRole('log', { name: 'Chat' });
      await chat.waitFor({ timeout: UI_TIMEOUT_MS });
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Please run the three commands');
      await page.getByRole('button', { name: 'Send' }).click();
      await chat.getByText('All three done.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });

      const card = chat.locator('.tool-card').filter({ hasText: `echo ${CALLS[1]}` });
      const show = card.getByRole('button', { name: 'Show in terminal' });
      await show.scrollIntoViewIfNeeded();
      await saveScreenshot(page, { name: 'jump-chat', viewport });
      await show.click();

      // The terminal opens at the second call: its command is on the rows shown, and the calls and
      // notes drawn long after it are not (the view is not simply the live bottom). claude 2.1.197
      // draws in the main screen: the live terminal scrolls back to the call. 2.1.330 draws in the
      // alternate screen, which keeps no history: the screen the runner kept at that moment is
      // shown over the live terminal.
      const still = page.locator('.terminal-still');
      const shown = page.locator('.terminal-still .xterm-rows, .terminal-stage > .terminal-host .xterm-rows');
      // (2.1.197 draws the call as `Bash(echo …)`, 2.1.330 as `$ echo …` while it runs.)
      await shown.getByText(`echo ${CALLS[1]}`).first().waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS }).catch(async (error: unknown) => {
        // CI keeps only the output: say what the terminal showed instead.
        const rows = await page.locator('.terminal-stage .xterm-rows').allInnerTexts();
        throw new Error(`the second call never showed (${(await still.count()) > 0 ? 'over a still' : 'live terminal'}): ${rows.join('\n---\n').slice(-1500)}`, { cause: error });
      });
      await saveScreenshot(page, { name: 'jump-terminal', viewport });
      const overStill = (await still.count()) > 0;
      const rows = overStill ? still.locator('.xterm-rows') : page.locator('.terminal-host .xterm-rows');
      const visible = (await rows.innerText()).replace(/\u00a0/g, ' ');
      expect(visible).toContain(`echo ${CALLS[1]}`);
      expect(visible).not.toContain(CALLS[2]);
      expect(visible).not.toContain('All three done.');
      await expect(page.getByText("That moment is no longer in the terminal's scrollback.").count()).resolves.toBe(0);
      if (overStill) {
        // The call's row is highlighted on the still screen.
        await expect(still.locator('.terminal-moment').isVisible()).resolves.toBe(true);
        // The live terminal is beneath, at its live end; "Back to live" shows it again.
        await still.getByRole('button', { name: 'Back to live' }).click();
        await still.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        await page.locator('.terminal-host .xterm-rows').getByText('All three done.').waitFor({ timeout: UI_TIMEOUT_MS });
        await saveScreenshot(page, { name: 'jump-back-to-live', viewport });
      } else {
        // The live end is still below: the terminal scrolled, it did not lose the rest.
        const below = await page.evaluate(() => {
          const viewportEl = document.querySelector('.terminal-host .xterm-viewport') as HTMLElement;
          return viewportEl.scrollHeight - viewportEl.clientHeight - viewportEl.scrollTop;
        });
        expect(below).toBeGreaterThan(0);
      }
    }, JOURNEY_TIMEOUT_MS);
  }
});
