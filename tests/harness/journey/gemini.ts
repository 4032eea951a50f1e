// gemini.ts (harness/journey): Gemini's row of the journey table: the fake Gemini API (the model is
// in the request's path), Gemini's sandbox started on the fake's model, ask_user as its question
// (its "Enter a custom value" field takes the person's words).
import { functionCall, hasToolResponse, lastUserText, shellCommand, startFakeGemini, streamedText, text, userSays, when } from '../../fixtures/fake-gemini/index.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY, geminiBin } from '../gemini.ts';
import { JOURNEY_QUESTION, journeyFake, type JourneyRow } from './row.ts';

type DialogInput = { headline?: string; freeText?: { key?: string } };

export const geminiRow: JourneyRow = {
  agent: 'gemini',
  async stage(defer) {
    const fake = await startFakeGemini();
    defer(() => fake.stop());
    const sandbox = createGeminiSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    return {
      sandbox,
      binEnv: { TETHER_GEMINI_BIN: geminiBin() },
      fake: journeyFake({
        fake,
        modelOf: (request) => /\/models\/([^:/]+):/.exec(request.path)?.[1] ?? null,
        text,
        streamedText,
        when,
        userSays,
        lastUserText,
        command: (command, description) => shellCommand(command, { description }),
        question: () => functionCall('ask_user', { questions: [{ ...JOURNEY_QUESTION, type: 'choice', options: [...JOURNEY_QUESTION.options] }] }),
        answered: hasToolResponse(),
      }),
    };
  },
  runner: { args: ['-m', FAKE_GEMINI_MODEL], cols: 110, rows: 35 },
  // Idle: its input drawn and its SessionStart hook run; a desk also waits for the hook's busy row to go.
  started: async ({ runner, phone }) => {
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session', timeoutMs: 45_000 });
    await runner.waitForScreen(GEMINI_READY);
  },
  idle: GEMINI_READY,
  pasteSettleMs: 500,
  question: {
    typed: true,
    headlineOf: (request) => (request.toolInput as DialogInput).headline,
    // Its custom-value option takes the words.
    answer: (request, words) => ({ decision: 'allow', choice: (request.toolInput as DialogInput).freeText?.key, text: words }),
  },
  model: { to: 'gemini-2.5-pro', names: (model) => model === 'gemini-2.5-pro' },
};
