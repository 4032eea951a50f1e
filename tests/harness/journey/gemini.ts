// gemini.ts (harness/journey): Gemini's row of the journey table: the fake Gemini API (the model is
// in the request's path), Gemini's sandbox started on the fake's model, ask_user as its question
// (its "Enter a custom value" field takes the person's words).
import { FREE_TEXT_MAX_CHARS } from '@tether/shared';
import * as api from '../../fixtures/fake-gemini/index.ts';
import { functionCall, hasToolResponse, shellCommand, startFakeGemini } from '../../fixtures/fake-gemini/index.ts';
import { createGeminiSandbox, FAKE_GEMINI_MODEL, GEMINI_READY, geminiBin } from '../gemini.ts';
import { JOURNEY_QUESTION, rowStage, type JourneyRow } from './row.ts';

type DialogInput = { headline?: string; freeText?: { key?: string } };

export const geminiRow: JourneyRow = {
  agent: 'gemini',
  launchKind: 'pty',
  async stage(defer) {
    const fake = await startFakeGemini();
    return rowStage(defer, {
      parts: {
        fake,
        api,
        modelOf: (request) => /\/models\/([^:/]+):/.exec(request.path)?.[1] ?? null,
        command: (command, description) => shellCommand(command, { description }),
        question: () => functionCall('ask_user', { questions: [{ ...JOURNEY_QUESTION, type: 'choice', options: [...JOURNEY_QUESTION.options] }] }),
        answered: hasToolResponse(),
      },
      sandbox: createGeminiSandbox({ fakeApiUrl: fake.url }),
      binEnv: { TETHER_GEMINI_BIN: geminiBin() },
    });
  },
  runner: { args: ['-m', FAKE_GEMINI_MODEL], cols: 110, rows: 35 },
  // Also its SessionStart hook's busy row gone.
  idle: GEMINI_READY,
  pasteSettleMs: 500,
  question: {
    typed: true,
    shape: {
      title: 'Answer Questions',
      options: [
        { key: '1', label: 'SQLite', detail: 'A file per test' },
        { key: '2', label: 'PostgreSQL', detail: 'A throwaway cluster' },
        { key: '3', label: 'Enter a custom value' },
      ],
      freeText: { key: '3', maxChars: FREE_TEXT_MAX_CHARS.gemini, placeholder: 'Enter a custom value' },
    },
    // Words go to its custom-value option only, which takes nothing else; over its limit, or nothing
    // left once control characters are gone, nothing is typed.
    refusals: () => [
      [{ decision: 'allow', choice: '1', text: 'words for a choice' }, /only option 3 takes a typed answer/],
      [{ decision: 'allow', choice: '3' }, /typed: send its text/],
      [{ decision: 'allow', choice: '3', text: 'x'.repeat(FREE_TEXT_MAX_CHARS.gemini + 1) }, /at most 600/],
      [{ decision: 'allow', choice: '3', text: '\x1b\x07 \r\n' }, /empty/],
    ],
    headlineOf: (request) => (request.toolInput as DialogInput).headline,
    // Its custom-value option takes the words.
    answer: (request, words) => ({ decision: 'allow', choice: (request.toolInput as DialogInput).freeText?.key, text: words }),
  },
  model: { to: 'gemini-2.5-pro', names: (model) => model === 'gemini-2.5-pro' },
};
