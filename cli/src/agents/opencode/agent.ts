// agent.ts: opencode (`opencode-ai` on npm), as the runner sees it (agents/agent.ts). Headless:
// `opencode acp` through the ACP transport (headless.ts, agents/acp/), its chat from tether's chat
// log of what it says over ACP, its permission requests to the phone, model and mode over ACP. In a
// PTY: its own TUI, heard through the server the TUI runs for itself (pty.ts, bridge.ts): the same
// chat log written from its events, its permission requests answered over that server's API, its
// mode and model switched with its own Tab and picker (modes.ts, model-picker.ts)
// (docs/decisions/agents.md, "opencode").
import { join } from 'node:path';
import { LaunchArgsError, type Agent } from '../agent.ts';
import { createEnder } from '../ender.ts';
import { agentEnvironment } from '../environment.ts';
import { findAgentBinary } from '../find-binary.ts';
import { createChatLogReader } from '../acp/chat-log-reader.ts';
import { opencodeCapabilities } from './capabilities.ts';
import { createOpencodeHeadless } from './headless.ts';
import { opencodeSpawnArgs, planOpencodeLaunch } from './launch.ts';
import { installOpencodePty } from './pty.ts';
import { opencodeHookDialect } from './hook-dialect.ts';
import { opencodeScreen } from './screen.ts';
import { opencodeModes } from './modes.ts';
import { switchOpencodeModel } from './model-picker.ts';
import { opencodeVersions } from './version.ts';

export const opencodeAgent: Agent = {
  kind: 'opencode',
  name: 'opencode',
  capabilities: opencodeCapabilities,
  findBinary: ({ env }) => findAgentBinary({ env, command: 'opencode', pinVariable: 'TETHER_OPENCODE_BIN', install: 'npm install -g opencode-ai' }),
  env: ({ env }) => agentEnvironment({ env }),
  plan: planOpencodeLaunch,
  // Only a PTY launch installs hooks; a headless one speaks ACP and needs none.
  installHooks: ({ endpoint, env, tetherHome, cwd, plan }) => {
    if (!tetherHome || !cwd) throw new LaunchArgsError('opencode in a PTY needs tether\'s state folder and the session\'s folder');
    const bin = opencodeAgent.findBinary({ env });
    // Remembered per binary (the launch's range check just read it): its --version starts the whole
    // native binary, which took over 10 s on a loaded machine.
    const version = opencodeVersions.cached({ bin, cacheFile: join(tetherHome, 'opencode-version.json') });
    return installOpencodePty({ version, bin, userArgs: plan.args, env, endpoint, tetherHome, cwd, opened: plan.fork ? null : plan.resumeId });
  },
  hookDialect: opencodeHookDialect,
  transcript: (options) => createChatLogReader({ usage: options?.usage ?? null }),
  // A refusal over ACP is the option the person picked; its result says nothing more.
  isRejectedToolResult: () => false,
  screen: opencodeScreen,
  // In a PTY: its Tab, as at the desk (headless: ACP's session/set_mode).
  modes: opencodeModes,
  // In a PTY: its /models picker, as at the desk (headless: ACP's session/set_model).
  models: { switchTo: switchOpencodeModel },
  spawnArgs: opencodeSpawnArgs,
  headless: createOpencodeHeadless,
  endPty: ({ pty, log }) => createEnder({ step: () => pty.kill('SIGTERM'), at: [0], exited: pty.exited, force: () => pty.kill('SIGKILL'), log }),
};
