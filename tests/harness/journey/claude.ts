// claude.ts (harness/journey): claude's row of the journey table: the fake Messages API, claude's
// sandbox in its manual mode (its own default differs by version), AskUserQuestion as its question.
import { buildQuestionAnswers } from '@tether/shared';
import * as api from '../../fixtures/fake-anthropic/index.ts';
import { hasToolResult, startFakeAnthropic, toolUse } from '../../fixtures/fake-anthropic/index.ts';
import { claudeBin, createClaudeSandbox } from '../claude.ts';
import { DESK_READY, MANUAL_MODE } from '../world.ts';
import { JOURNEY_QUESTION, rowStage, type JourneyRow } from './row.ts';

const QUESTION = { ...JOURNEY_QUESTION, options: [...JOURNEY_QUESTION.options], multiSelect: false };

export const claudeRow: JourneyRow = {
  agent: 'claude',
  launchKind: 'pty',
  async stage(defer) {
    const fake = await startFakeAnthropic();
    return rowStage(defer, {
      parts: {
        fake,
        api,
        modelOf: (request) => (request.body as { model?: string } | undefined)?.model ?? null,
        command: (command, description) => toolUse('Bash', { command, description }),
        question: () => toolUse('AskUserQuestion', { questions: [QUESTION] }),
        answered: hasToolResult(),
      },
      sandbox: createClaudeSandbox({ fakeApiUrl: fake.url }),
      binEnv: { TETHER_CLAUDE_BIN: claudeBin() },
    });
  },
  runner: { args: MANUAL_MODE },
  idle: DESK_READY,
  pasteSettleMs: 0,
  question: {
    typed: false,
    shape: { questions: [QUESTION] },
    refusals: () => [],
    headlineOf: (request) => (request.toolInput as { questions?: Array<{ question: string }> }).questions?.[0]?.question,
    // A single choice takes either a pick or the person's own words ("Other").
    answer: (_request, words) => ({ decision: 'allow', answers: buildQuestionAnswers({ questions: [QUESTION], picks: [{ labels: [], other: words }] }) }),
  },
  model: {
    to: 'sonnet',
    names: (model) => /sonnet/.test(model ?? ''),
    // 2.1.332 asks first when the conversation is cached for the model it leaves.
    confirm: (request) => {
      const input = request.toolInput as { title?: string; options?: Array<{ key: string; label: string }> };
      const yes = input.options?.find((o) => /^Yes\b/.test(o.label));
      return input.title === 'Switch model?' && yes ? { decision: 'allow', choice: yes.key } : null;
    },
  },
};
