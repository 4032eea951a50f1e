// codex.ts (harness/journey): Codex's row of the journey table: the fake Responses API, Codex's
// sandbox, request_user_input as its question (asked in its Plan mode, entered at the desk), and a
// model its `/model` picker lists at both pins.
import { FREE_TEXT_MAX_CHARS } from '@tether/shared';
import * as api from '../../fixtures/fake-openai/index.ts';
import { execCommand, hasToolOutput, requestUserInput, startFakeOpenAI } from '../../fixtures/fake-openai/index.ts';
import { CODEX_READY, codexBin, createCodexSandbox, enterPlanModeAtDesk } from '../codex.ts';
import { JOURNEY_QUESTION, rowStage, type JourneyRow } from './row.ts';

type DialogInput = { headline?: string; options: Array<{ key: string; label: string }> };

export const codexRow: JourneyRow = {
  agent: 'codex',
  launchKind: 'pty',
  async stage(defer) {
    const fake = await startFakeOpenAI();
    return rowStage(defer, {
      parts: {
        fake,
        api,
        modelOf: (request) => (request.body as { model?: string } | undefined)?.model ?? null,
        command: (command, description) => execCommand(command, { justification: description }),
        question: () => requestUserInput([{ id: 'database', ...JOURNEY_QUESTION, options: [...JOURNEY_QUESTION.options] }]),
        answered: hasToolOutput(),
      },
      sandbox: createCodexSandbox({ fakeApiUrl: fake.url }),
      binEnv: { TETHER_CODEX_BIN: codexBin() },
    });
  },
  runner: { args: [], cols: 110, rows: 35 },
  idle: CODEX_READY,
  pasteSettleMs: 0,
  question: {
    typed: true,
    shape: {
      options: [
        { key: '1', label: 'SQLite', detail: 'A file per test' },
        { key: '2', label: 'PostgreSQL', detail: 'A throwaway cluster' },
        { key: '3', label: 'None of the above' },
      ],
      freeText: { notes: true, maxChars: FREE_TEXT_MAX_CHARS.codex },
    },
    // Its notes go with a pick; over its limit nothing is typed.
    refusals: () => [
      [{ decision: 'allow', text: 'a note alone' }, /choose one/],
      [{ decision: 'allow', choice: '2', text: 'x'.repeat(FREE_TEXT_MAX_CHARS.codex + 1) }, /at most/],
    ],
    prepare: enterPlanModeAtDesk,
    headlineOf: (request) => (request.toolInput as DialogInput).headline,
    // Its notes field goes with a pick.
    answer: (request, words) => ({ decision: 'allow', choice: (request.toolInput as DialogInput).options.find((o) => o.label === 'PostgreSQL')?.key, text: words }),
  },
  // Listed by both pinned versions' pickers (codex-model.test.ts).
  model: { to: 'gpt-6-luna', names: (model) => model === 'gpt-6-luna' },
};
