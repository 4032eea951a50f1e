// agent.ts: opencode (`opencode-ai` on npm), as the runner sees it (agents/agent.ts). Headless only:
// `opencode acp` through the ACP transport (headless.ts, agents/acp/), its chat from tether's chat
// log of what it says over ACP, its permission requests to the phone, model and mode over ACP. Its
// TUI in a PTY is refused until tether reads its screen (docs/decisions/agents.md, "opencode").
import { LaunchArgsError, type Agent } from '../agent.ts';
import { createEnder } from '../ender.ts';
import { agentEnvironment } from '../environment.ts';
import { findAgentBinary } from '../find-binary.ts';
import { createChatLogReader } from '../acp/chat-log-reader.ts';
import { opencodeCapabilities } from './capabilities.ts';
import { createOpencodeHeadless } from './headless.ts';
import { opencodeSpawnArgs, planOpencodeLaunch } from './launch.ts';

const PTY_REFUSED = 'opencode runs headless only under tether (`opencode acp`): its TUI is not mirrored yet; start it headless';

export const opencodeAgent: Agent = {
  kind: 'opencode',
  name: 'opencode',
  capabilities: opencodeCapabilities,
  findBinary: ({ env }) => findAgentBinary({ env, command: 'opencode', pinVariable: 'TETHER_OPENCODE_BIN', install: 'npm install -g opencode-ai' }),
  env: ({ env }) => agentEnvironment({ env }),
  plan: planOpencodeLaunch,
  // Only a PTY launch installs hooks; a headless one speaks ACP and needs none.
  installHooks: () => {
    throw new LaunchArgsError(PTY_REFUSED);
  },
  transcript: (options) => createChatLogReader({ usage: options?.usage ?? null }),
  // A refusal over ACP is the option the person picked; its result says nothing more.
  isRejectedToolResult: () => false,
  // Never drawn: no PTY runs it (installHooks refuses first).
  screen: { readPrompt: () => ({ kind: 'starting' }), readDialog: () => null },
  spawnArgs: opencodeSpawnArgs,
  headless: createOpencodeHeadless,
  endPty: ({ pty, log }) => createEnder({ step: () => pty.kill('SIGTERM'), at: [0], exited: pty.exited, force: () => pty.kill('SIGKILL'), log }),
};
