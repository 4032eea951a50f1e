// gemini-questions.test.ts: Gemini's own question (its ask_user tool, drawn on its screen) answered
// in the browser at 390×844 (touch) and 1280×800, against the real Gemini TUI and the fake Gemini API:
// the sheet is titled with the question (its headline) under Gemini's box title, the options are
// buttons and "Enter a custom value" is a text field with a count against Gemini's limit (over it,
// Send is off); the words sent reach the model. Screenshots and axe in both themes.
import { describe, expect, it } from 'vitest';
import { FREE_TEXT_MAX_CHARS } from '@tether/shared';
import { functionCall, lastToolResponses, startFakeGemini, text, userSays, when } from '../fixtures/fake-gemini/index.ts';
import { screenshotsAndSeriousInBothThemes } from '../harness/axe.ts';
import { sendFromComposer, UI_TIMEOUT_MS, VIEWPORTS, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY } from '../harness/gemini.ts';
import { startRunner } from '../harness/runner.ts';

/** A Gemini TUI start or turn on a loaded box. */
const GEMINI_UI_TIMEOUT_MS = 45_000;

const QUESTION = 'Which database should the service use?';

describe('Gemini’s own question answered in the browser', () => {
  const world = useBrowserWorld();
  const defer = useCleanups();

  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    it(`${viewport}: the question is the sheet’s title; its custom value is typed on the phone and reaches the model`, async () => {
      const token = await world.hub.createToken(`gemini-question-${viewport}`);
      const fake = await startFakeGemini({
        script: [
          when(userSays('pick'), functionCall('ask_user', { questions: [{ header: 'Database', question: QUESTION, type: 'choice', options: [{ label: 'SQLite', description: 'one file on disk' }, { label: 'PostgreSQL', description: 'a server of its own' }] }] })),
          text('Database noted.'),
        ],
      });
      defer(() => fake.stop());
      const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
      defer(() => sandbox.stop());
      const runner = startRunner({ hub: { url: world.hub.url, token }, sandbox, agent: 'gemini', cols: 110, rows: 35, args: ['-m', FAKE_GEMINI_MODEL] });
      defer(() => runner.stop());
      await runner.waitForScreen(GEMINI_READY, { timeoutMs: GEMINI_UI_TIMEOUT_MS });
      const tab = await world.signedInPage(viewport, token);
      defer(() => tab.close());

      const row = tab.locator(`a[data-session-id="${runner.sessionId}"][data-status="idle"]`);
      await row.waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await row.click();
      await sendFromComposer(tab, viewport, 'pick a database for me');

      const sheet = tab.getByRole('dialog', { name: QUESTION });
      await sheet.waitFor({ timeout: GEMINI_UI_TIMEOUT_MS });
      await sheet.getByText('Answer Questions', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
      await sheet.getByRole('button', { name: /SQLite/ }).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await sheet.getByRole('button', { name: /Enter a custom value/ }).count()).toBe(0);
      const field = sheet.getByRole('textbox', { name: 'Or type your own answer' });
      await expect(field.getAttribute('placeholder')).resolves.toBe('Enter a custom value');
      expect(await screenshotsAndSeriousInBothThemes(tab, { name: 'gemini-question', viewport })).toEqual([]);

      // Over Gemini's limit the count turns red and says so, and Send is off: nothing can be sent.
      const send = sheet.getByRole('button', { name: 'Send', exact: true });
      await field.fill('x'.repeat(FREE_TEXT_MAX_CHARS.gemini + 1));
      await sheet.getByText(`${FREE_TEXT_MAX_CHARS.gemini + 1} / ${FREE_TEXT_MAX_CHARS.gemini} · too long`).waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await send.isDisabled()).toBe(true);
      expect(await screenshotsAndSeriousInBothThemes(tab, { name: 'gemini-question-over', viewport })).toEqual([]);

      await field.fill('CockroachDB, please');
      await send.click();
      await sheet.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
      await runner.waitForScreen('Database noted.', { timeoutMs: GEMINI_UI_TIMEOUT_MS });
      const answered = fake.mainRequests().flatMap(lastToolResponses).find((r) => r.name === 'ask_user');
      expect(JSON.parse((JSON.parse(answered!.output) as { output: string }).output)).toEqual({ answers: { '0': 'CockroachDB, please' } });
    }, 150_000);
  }
});
