// agent.ts: Codex (`@openai/codex`), as the runner sees it (agents/agent.ts): its binary, `-c` hooks
// that it trusts by hash (launch.ts), its rollout transcript (rollout.ts), its screen (screen.ts) and
// Ctrl-C as its own exit; headless, `codex app-server` (headless.ts). Model and effort switch through
// its `/model` picker in a PTY (model-picker.ts). What it does not have here yet: mode switching.
import { agentResumeId, type Agent } from '../agent.ts';
import { codexCapabilities } from './capabilities.ts';
import { createEnder } from '../ender.ts';
import { agentEnvironment } from '../environment.ts';
import { findCodexBinary } from './binary.ts';
import { hookCommand, writeHookEndpoint } from '../../hooks/endpoint-file.ts';
import { codexHookArgs, planCodexLaunch } from './launch.ts';
import { createRolloutReader } from './rollout.ts';
import { codexScreen } from './screen.ts';
import { createCodexHeadless } from './headless.ts';
import { codexHookAskedBy } from './sub-agents.ts';
import { codexHookDialect } from './hook-dialect.ts';
import { switchCodexModel } from './model-picker.ts';
import { codexConversations } from './conversations.ts';

/** Ctrl-C twice quits Codex at an idle prompt (the first one clears typed text or interrupts). */
const CTRL_C = '\x03';
const PRESSES_AT = [0, 400, 1_500, 1_900, 3_000, 3_400];
/** Variables that would point Codex at another Codex's state or make it think it runs inside one. */
const DROPPED = ['CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'CODEX_THREAD_ID'] as const;

export const codexAgent: Agent = {
  kind: 'codex',
  conversations: codexConversations,
  name: 'codex',
  capabilities: codexCapabilities,
  findBinary: ({ env }) => findCodexBinary(env),
  env: ({ env }) => agentEnvironment({ env, dropped: DROPPED }),
  plan: planCodexLaunch,
  installHooks: ({ endpoint, permissionHook }) => {
    const file = writeHookEndpoint({ endpoint });
    const hooks = codexHookArgs({ commandFor: (event) => hookCommand({ event, endpointPath: file.endpointPath }), permissionHook });
    return { args: ['--no-daemon', ...hooks], prepend: true, remove: file.remove };
  },
  transcript: createRolloutReader,
  // A refusal at Codex's own dialog is the model's next input, not a marked tool result.
  isRejectedToolResult: () => false,
  screen: codexScreen,
  hookHidesDialog: true,
  // A patch's hooks name apply_patch and its text: read as files and diffs (hook-dialect.ts).
  hookDialect: codexHookDialect,
  askedBy: codexHookAskedBy,
  // `/model` takes no name here: its picker is driven key by key (model-picker.ts).
  models: { switchTo: switchCodexModel },
  // A path pasted alone is attached as an image ("[Image #1]"); with other text it stays text.
  ptyImages: 'paste-path',
  plainVerdicts: true,
  turnEndsInTranscript: true,
  // Codex's approval policy is the user's (config.toml); a permission mode from afar is not mapped.
  // `codex resume <id>` takes the id as a positional only (no `=` form; the runner drops `--`): the
  // id is checked to be a UUID, never a flag.
  // Read-only is Codex's read-only sandbox with on-request approvals, as `-c` (the TUI and the
  // app-server both take it).
  spawnArgs: ({ model, resumeId, readOnly, addedDirs = [] }) => [
    ...(resumeId ? ['resume', agentResumeId(resumeId)] : []),
    ...(model ? ['-m', model] : []),
    ...addedDirs.map((dir) => `--add-dir=${dir}`),
    ...(readOnly ? ['-c', 'sandbox_mode="read-only"', '-c', 'approval_policy="on-request"'] : []),
  ],
  headless: createCodexHeadless,
  endPty: ({ pty, log }) => createEnder({ step: () => pty.write(CTRL_C), at: PRESSES_AT, exited: pty.exited, force: () => pty.kill('SIGTERM'), log }),
};
