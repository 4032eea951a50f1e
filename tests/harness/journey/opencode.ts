// opencode.ts (harness/journey): opencode's row of the journey table: the fake chat completions API
// (opencode's `@ai-sdk/openai-compatible` provider, the model in the request's body), opencode's
// sandbox (`permission.bash: ask`), started headless from the phone (`opencode acp`). At a desk its
// TUI runs under tether at both pins (at 1.17.0 attached to a server tether starts; walked in
// tests/e2e/opencode-pty.test.ts) and is refused, saying why, below the floor. Its question tool is left out of what it offers the model over
// ACP (the reason below), so that step shows the absence at the fake API.
import * as api from '../../fixtures/fake-chat-completions/index.ts';
import { hasToolResult, startFakeChatCompletions, toolCall, toolNames } from '../../fixtures/fake-chat-completions/index.ts';
import { createOpencodeSandbox, FAKE_OPENCODE_MODEL, FAKE_OPENCODE_MODEL_2, opencodeBin } from '../opencode.ts';
import { rowStage, type JourneyRow } from './row.ts';
import { ptyRefusal } from '../../../cli/src/agents/opencode/pty.ts';
import { opencodeVersions } from '../../../cli/src/agents/opencode/version.ts';

/** Its TUI at both pins (pty.ts's table); refused below the floor. */
const deskOf = (): { refused: RegExp } | { shows: RegExp } =>
  ptyRefusal(opencodeVersions.read(opencodeBin(), { timeoutMs: 60_000 })) ? { refused: /its TUI runs under tether from/ } : { shows: /ctrl\+p commands/ };

export const opencodeRow: JourneyRow = {
  agent: 'opencode',
  launchKind: 'headless',
  async stage(defer) {
    const fake = await startFakeChatCompletions();
    return rowStage(defer, {
      parts: {
        fake,
        api,
        modelOf: (request) => (request.body as { model?: string } | undefined)?.model ?? null,
        command: (command, description) => toolCall('bash', { command, description }),
        question: null,
        answered: hasToolResult(),
      },
      sandbox: createOpencodeSandbox({ fakeApiUrl: fake.url }),
      binEnv: { TETHER_OPENCODE_BIN: opencodeBin() },
    });
  },
  startModel: FAKE_OPENCODE_MODEL,
  get desk() {
    return deskOf();
  },
  question: {
    // Read from its bundle (1.17.0 and 1.18.33): `opencode acp` sets OPENCODE_CLIENT=acp, and its
    // `question` tool is registered only for the clients app, cli and desktop (or with
    // OPENCODE_ENABLE_QUESTION_TOOL); its ACP agent forwards permission.asked but not
    // question.asked, so a question asked there would wait on nobody. Nothing to put to the phone.
    absent: 'opencode offers its question tool to the model in its own TUI, app and desktop only, never over ACP (OPENCODE_CLIENT=acp), and its ACP agent relays no question',
    tool: 'question',
    toolsOffered: (request) => toolNames((request.body ?? {}) as api.ChatRequest),
  },
  // The sandbox's provider lists both models: ACP's session/set_model takes either.
  model: { to: FAKE_OPENCODE_MODEL_2, names: (model) => model === FAKE_OPENCODE_MODEL_2.split('/')[1] },
};
