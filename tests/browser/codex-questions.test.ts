// codex-questions.test.ts: Codex's own question in a PTY (request_user_input, in Plan mode entered at
// the desk with Shift+Tab) answered in the browser at 390×844 (touch) and 1280×800, against the real
// Codex TUI and the fake Responses API: the sheet is titled with the question, each option shows its
// description, a note is typed above them and goes with the option tapped; both reach the model.
// Screenshots and axe in both themes.
import { describe, expect, it } from 'vitest';
import { hasToolOutput, lastToolOutputs, requestUserInput, startFakeOpenAI, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { sendFromComposer, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { CODEX_READY, codexStarted, createCodexSandbox, enterPlanModeAtDesk } from '../harness/codex.ts';
import { startRunner } from '../harness/runner.ts';

const CODEX_UI_TIMEOUT_MS = 45_000;
const QUESTION = 'Which database should the tests use?';

describe('Codex’s own question answered in the browser with a note', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the question is the sheet’s title; a note typed on the phone goes with the option tapped`, async () => {
      const token = await world.hub.createToken(`codex-question-${viewport}`);
      const fake = await startFakeOpenAI({
        script: [
          when(userSays('ask me'), requestUserInput([{ id: 'database', header: 'Database', question: QUESTION, options: [{ label: 'SQLite (Recommended)', description: 'A file per test' }, { label: 'PostgreSQL', description: 'A throwaway cluster' }] }], { callId: 'call_q1' })),
          when(hasToolOutput(), text('noted your choice')),
        ],
      });
      defer(() => fake.stop());
      const sandbox = createCodexSandbox({ fakeApiUrl: fake.url });
      defer(() => sandbox.stop());
      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, agent: 'codex', cols: 110, rows: 35 });
      defer(() => runner.stop());
      await runner.waitForScreen(CODEX_READY, { timeoutMs: CODEX_UI_TIMEOUT_MS });
      await runner.waitForScreen(codexStarted(sandbox.cwd), { timeoutMs: CODEX_UI_TIMEOUT_MS });
      const tab = await world.signedInPage(viewport, token);
      defer(() => tab.close());

      const row = tab.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`);
      await row.waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      await enterPlanModeAtDesk(runner);
      await row.click();
      await sendFromComposer(tab, viewport, 'ask me about the database');

      const sheet = tab.getByRole('dialog', { name: QUESTION });
      await sheet.waitFor({ timeout: CODEX_UI_TIMEOUT_MS });
      await sheet.getByRole('button', { name: /PostgreSQL.*A throwaway cluster/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      const note = sheet.getByRole('textbox', { name: 'Add a note to your answer (optional)' });
      await note.fill('a throwaway one, please');
      expect(await screenshotsAndSeriousInBothThemes(tab, { name: 'codex-question-note', viewport })).toEqual([]);
      await sheet.getByRole('button', { name: /PostgreSQL/ }).click();
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await runner.waitForScreen('noted your choice', { timeoutMs: CODEX_UI_TIMEOUT_MS });
      const output = fake.mainRequests().flatMap(lastToolOutputs).find((o) => o.callId === 'call_q1')?.output ?? '';
      expect(output).toContain('PostgreSQL');
      expect(output).toContain('a throwaway one, please');
    }, 150_000);
  }
});
