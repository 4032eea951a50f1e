// elicitation.test.ts: an MCP server's form answered from the browser, with the real thing: a hub
// serving web/dist, a real `tether claude` runner driving the pinned claude (model: the scripted
// fake Messages API), the stdio MCP fixture asking for input in its tool, and Debian's Chromium at
// 390×844 and 1280×800. The form is filled and accepted on the page; the MCP server receives exactly
// those values.
//
//   tab ─approval:answer {elicitation: accept, content}─► hub ─► tether claude ─hook answer─► claude ─► MCP server
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasToolResult, startFakeAnthropic, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { ELICIT_TOOL, elicitFixture, type ElicitFixture } from '../fixtures/elicit-mcp/config.ts';
import { saveScreenshot, saveScreenshotsInBothThemes, sendFromComposer, UI_TIMEOUT_MS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startRunner } from '../harness/runner.ts';
import { DESK_READY, MANUAL_MODE } from '../harness/world.ts';

const CLAUDE_UI_TIMEOUT_MS = 30_000;
const JOURNEY_TIMEOUT_MS = 90_000;

async function toolsListed(fixture: ElicitFixture): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!fixture.log().some((e) => e.event === 'tools-list')) {
    if (Date.now() > deadline) throw new Error(`claude never listed the MCP server's tools: ${JSON.stringify(fixture.log())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('MCP elicitation from the browser (real claude)', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`${viewport}: the form is filled and accepted → the MCP server receives those values`, async () => {
      const token = await world.hub.createToken(`elicit-${viewport}`);
      const fake = await startFakeAnthropic({
        script: [when(userSays(/deploy/), toolUse(ELICIT_TOOL, {}, { id: 'toolu_form' })), when(hasToolResult({ id: 'toolu_form' }), text('Deploy details received.'))],
      });
      defer(() => fake.stop());
      const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
      defer(() => sandbox.stop());
      const fixture = elicitFixture();
      defer(() => fixture.stop());
      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, args: [...MANUAL_MODE, ...fixture.args] });
      defer(() => runner.stop());
      await runner.waitForScreen(DESK_READY, { timeoutMs: CLAUDE_UI_TIMEOUT_MS });
      await toolsListed(fixture);

      const tab = await world.signedInPage(viewport, token);
      defer(() => tab.close());
      await tab.locator(`a[data-session-id="${runner.sessionId}"]`).click();
      await tab.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await sendFromComposer(tab, viewport, 'deploy please');

      const sheet = tab.getByRole('dialog', { name: 'elicit asks for input' });
      await sheet.waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      await sheet.getByText('Who is deploying, and where to?').waitFor({ timeout: UI_TIMEOUT_MS });
      // Defaults from the schema: "Notify the team" starts checked.
      await expect(sheet.getByRole('checkbox', { name: 'Notify the team' }).isChecked()).resolves.toBe(true);
      await saveScreenshotsInBothThemes(tab, { name: 'elicitation-form', viewport });

      // Accept with a required field empty: the form says which, nothing is sent.
      await sheet.getByRole('button', { name: 'Accept' }).click();
      await sheet.getByRole('alert').filter({ hasText: 'Your name is required' }).waitFor({ timeout: UI_TIMEOUT_MS });
      await saveScreenshot(tab, { name: 'elicitation-form-invalid', viewport });
      expect(fixture.log().some((e) => e.event === 'answer')).toBe(false);

      await sheet.getByRole('textbox', { name: /Your name/ }).fill('Ada');
      await sheet.getByRole('spinbutton', { name: 'Replicas' }).fill('3');
      await sheet.getByRole('checkbox', { name: 'Notify the team' }).uncheck();
      await sheet.getByRole('radio', { name: 'US (East)' }).check();
      await sheet.getByRole('button', { name: 'Accept' }).click();

      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await tab.getByRole('log', { name: 'Chat' }).getByText('Deploy details received.').waitFor({ timeout: CLAUDE_UI_TIMEOUT_MS });
      expect(fixture.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'accept', content: { name: 'Ada', replicas: 3, notify: false, region: 'us-east' } });
    }, JOURNEY_TIMEOUT_MS);
  }
});
