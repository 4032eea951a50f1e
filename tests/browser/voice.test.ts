// voice.test.ts: dictation and hands-free in Debian's Chromium with a fake microphone
// (--use-fake-device-for-media-stream playing a WAV this test writes), a real hub configured with
// the scripted fake transcription endpoint, and a /cli socket playing the runner.
//
//   mic ─MediaRecorder (WebM)─► POST /api/transcriptions ─► hub ─multipart─► fake endpoint ─text─► composer
//   runner ─message:append / approval:request─► hub ─► tab ─speechSynthesis.speak (recorded)
//   hands-free question ─speak─► listen (fake mic ─► hub ─► fake: "SQLite") ─approval:answer─► runner
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { makeWav, startFakeTranscription } from '../fixtures/fake-transcription/fake-transcription.ts';
import { axeViolations, seriousOnes } from '../harness/axe.ts';
import { loginWithQrLink, saveScreenshot, UI_TIMEOUT_MS, useColorScheme, type ViewportName } from '../harness/browser.ts';
import { useBrowserWorld } from '../harness/browser-world.ts';
import { emitAck, nextEvent } from '../harness/hub.ts';
import { userQuestion } from '../fixtures/questions.ts';

const MODEL = 'whisper-voice-test';
const KEY = 'sk-voice-test';
/** Dictation records for this long before Stop: enough for MediaRecorder to write real frames. */
const RECORD_MS = 1500;
/** Hands-free listens 4 s for an answer, then the hub transcribes it. */
const ANSWER_TIMEOUT_MS = 20_000;
const JOURNEY_TIMEOUT_MS = 60_000;

const DATABASE_QUESTION = userQuestion({ question: 'Which database should the cache use?', header: 'Database', multiSelect: false }, [
  ['SQLite', 'One file, no server.'],
  ['PostgreSQL', 'Shared with the app.'],
]);

type Answered = { sessionId: string; requestId: string; answer: unknown };

const dir = mkdtempSync(join(tmpdir(), 'tether-voice-'));
const wav = join(dir, 'speech.wav');
writeFileSync(wav, makeWav({ seconds: 3, sampleRate: 48_000 }));
const fake = startFakeTranscription({ model: MODEL, apiKey: KEY });

/** Runs in every document before the app: the choice of the hub's recognizer (the person's
 *  setting; headless Chromium's own recognizer has no speech service), and every speak() recorded
 *  and ended at once, as a voice that finished speaking. */
function recordSpeech() {
  const w = window as unknown as { __spoken: string[] };
  w.__spoken = [];
  if (!localStorage.getItem('tether.voice')) localStorage.setItem('tether.voice', JSON.stringify({ engine: 'hub', handsFree: false }));
  window.speechSynthesis.speak = (utterance: SpeechSynthesisUtterance) => {
    w.__spoken.push(utterance.text);
    setTimeout(() => utterance.onend?.(new Event('end') as SpeechSynthesisEvent), 10);
  };
}

describe('voice: dictation through the hub, hands-free reading and answering', () => {
  const world = useBrowserWorld({
    hub: { transcription: { baseUrl: fake.url, apiKey: KEY, model: MODEL } },
    browser: { args: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-audio-capture=${wav}`] },
  });
  afterAll(async () => {
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function openSession(viewport: ViewportName, scheme: 'light' | 'dark', title: string) {
    const token = await world.hub.createToken(`voice-${viewport}-${scheme}`);
    const { runner, sessionId } = await world.runnerWithSession(token, { cwd: '/home/dev/src/tether', launchKind: 'headless', title, status: 'idle' });
    const page = await world.browser.newPage({ viewport, colorScheme: scheme });
    await page.addInitScript(recordSpeech);
    await loginWithQrLink(page, { hubUrl: world.hub.url, token });
    await useColorScheme(page, scheme);
    await page.getByRole('link', { name: new RegExp(title) }).click();
    await page.getByRole('log', { name: 'Chat' }).waitFor({ timeout: UI_TIMEOUT_MS });
    return { runner, sessionId, page };
  }

  const spoken = (page: Page) => page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken);

  async function expectAccessible(page: Page) {
    expect(seriousOnes(await axeViolations(page))).toEqual([]);
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      it(
        `${viewport} ${scheme}: a dictated prompt goes through the hub to the endpoint and lands in the composer`,
        async () => {
          const { page } = await openSession(viewport, scheme, `Dictate ${viewport} ${scheme}`);
          const before = fake.requests.length;
          fake.script(['Run the tests and fix what fails.']);
          const box = page.getByRole('textbox', { name: 'Message' });
          await box.fill('Please:');
          const mic = page.getByRole('button', { name: 'Dictate', exact: true });
          expect(await mic.getAttribute('title')).toContain('Audio goes to 127.0.0.1 via your hub');
          await mic.click();
          const status = page.getByRole('status').filter({ hasText: 'Listening…' });
          await status.waitFor({ timeout: UI_TIMEOUT_MS });
          expect(await status.textContent()).toBe('Listening… Audio goes to 127.0.0.1 via your hub; nothing is kept.');
          await page.waitForTimeout(RECORD_MS);
          await saveScreenshot(page, { name: `voice-listening-${scheme}`, viewport });
          await expectAccessible(page);
          await page.getByRole('button', { name: 'Stop dictating', exact: true }).click();
          await expect.poll(() => box.inputValue(), { timeout: UI_TIMEOUT_MS }).toBe('Please: Run the tests and fix what fails.');

          const sent = fake.requests.slice(before);
          expect(sent).toHaveLength(1);
          // Real WebM from MediaRecorder, declared as what its bytes are, with the hub's key and model.
          expect(sent[0]).toMatchObject({ model: MODEL, sniffedType: 'audio/webm', declaredType: 'audio/webm', authorization: `Bearer ${KEY}`, refused: null });
          expect(sent[0]!.bytes).toBeGreaterThan(1000);
          await saveScreenshot(page, { name: `voice-dictated-${scheme}`, viewport });
          await expectAccessible(page);
          await page.close();
        },
        JOURNEY_TIMEOUT_MS,
      );
    }

    it(
      `${viewport}: the endpoint failing is said in the composer, and nothing is added to the text`,
      async () => {
        const { page } = await openSession(viewport, 'light', `Dictation fails ${viewport}`);
        fake.failWith(503);
        try {
          const box = page.getByRole('textbox', { name: 'Message' });
          await box.fill('Keep this');
          await page.getByRole('button', { name: 'Dictate', exact: true }).click();
          await page.getByRole('status').filter({ hasText: 'Listening…' }).waitFor({ timeout: UI_TIMEOUT_MS });
          await page.waitForTimeout(RECORD_MS);
          await page.getByRole('button', { name: 'Stop dictating', exact: true }).click();
          const alert = page.getByRole('alert').filter({ hasText: 'transcription service' });
          await alert.waitFor({ timeout: UI_TIMEOUT_MS });
          expect(await alert.textContent()).toBe("Couldn't transcribe: the transcription service at 127.0.0.1 failed (HTTP 503)");
          expect(await box.inputValue()).toBe('Keep this');
          await saveScreenshot(page, { name: 'voice-endpoint-failed', viewport });
          await expectAccessible(page);
          await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
          await alert.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
        } finally {
          fake.failWith(null);
          await page.close();
        }
      },
      JOURNEY_TIMEOUT_MS,
    );

    it(
      `${viewport}: hands-free reads a new reply and a new question, and takes the question's answer by voice`,
      async () => {
        const { runner, sessionId, page } = await openSession(viewport, 'light', `Hands-free ${viewport}`);
        const toggle = page.getByRole('button', { name: 'Hands-free', exact: true });
        await toggle.click();
        expect(await toggle.getAttribute('aria-pressed')).toBe('true');

        const appended = await emitAck(runner, 'message:append', {
          sessionId,
          messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: 'The build is **green**.\n```sh\nbun test\n```' }], createdAt: Date.now() }],
        });
        expect(appended.ok).toBe(true);
        await expect.poll(() => spoken(page), { timeout: UI_TIMEOUT_MS }).toEqual(['The build is green. (code)']);

        fake.script(['SQLite, please.']);
        const answered = nextEvent<Answered>(runner, 'approval:answered', ANSWER_TIMEOUT_MS);
        const requestId = randomUUID();
        const asked = await emitAck(runner, 'approval:request', { id: requestId, sessionId, kind: 'question', toolName: 'AskUserQuestion', toolInput: { questions: [DATABASE_QUESTION] }, toolUseId: 'toolu_voice', createdAt: Date.now() });
        expect(asked.ok).toBe(true);
        await page.getByRole('status').filter({ hasText: 'Listening for your answer: SQLite, PostgreSQL' }).waitFor({ timeout: UI_TIMEOUT_MS });
        await expectAccessible(page);
        await saveScreenshot(page, { name: 'voice-hands-free-question', viewport });
        expect(await answered).toEqual({ sessionId, requestId, answer: { decision: 'allow', answers: { [DATABASE_QUESTION.question]: 'SQLite' } } });
        await expect
          .poll(() => spoken(page), { timeout: UI_TIMEOUT_MS })
          .toEqual(['The build is green. (code)', 'Claude asks: Which database should the cache use? Say SQLite, or PostgreSQL.', 'Answered SQLite.']);

        // Off: the next reply is not read.
        await toggle.click();
        await emitAck(runner, 'message:append', { sessionId, messages: [{ id: randomUUID(), role: 'assistant', content: [{ type: 'text', text: 'Not read.' }], createdAt: Date.now() }] });
        await page.getByText('Not read.').waitFor({ timeout: UI_TIMEOUT_MS });
        expect(await spoken(page)).toHaveLength(3);
        await page.close();
      },
      JOURNEY_TIMEOUT_MS,
    );
  }
});
