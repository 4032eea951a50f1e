// agent.ts: Gemini CLI (`@google/gemini-cli`), as the runner sees it (agents/agent.ts): its binary,
// its hooks in a private copy of its settings (home.ts, hooks.ts) gating every call plain `gemini`
// would ask about (launch.ts), its session JSONL (transcript.ts), its screen (screen.ts) and Ctrl-C
// as its own exit; headless, `gemini --acp` through the ACP transport (headless.ts, agents/acp/).
// A PTY Gemini's mode is its gate's policy (gate.ts), switched from the phone (modes.ts); headless, the
// phone switches the model (ACP session/set_model).
import { agentResumeId, type Agent } from '../agent.ts';
import { createEnder } from '../ender.ts';
import { agentEnvironment } from '../environment.ts';
import { findAgentBinary } from '../find-binary.ts';
import { hookCommand, writeHookEndpoint } from '../../hooks/endpoint-file.ts';
import { geminiCapabilities } from './capabilities.ts';
import { createGeminiHome, userAllowedTools } from './home.ts';
import { geminiHookDialect, geminiHookSettings } from './hooks.ts';
import { planGeminiLaunch } from './launch.ts';
import { createGeminiGate, GATED_TOOLS_MATCHER } from './gate.ts';
import { geminiModes } from './modes.ts';
import { geminiScreen } from './screen.ts';
import { createGeminiHeadless } from './headless.ts';
import { createGeminiTranscriptReader } from './transcript.ts';
import { pathForNodeAgent } from './node-path.ts';
import { geminiConversations } from './conversations.ts';

/** Variables that make Gemini CLI run without its TUI even in a terminal. */
const HEADLESS_MARKERS: readonly string[] = ['CI', 'GITHUB_ACTIONS'];

/** Esc cancels a turn; Ctrl-C twice quits at an idle prompt (the first clears typed text). */
const ESC = '\x1b';
const CTRL_C = '\x03';
const STEPS = [ESC, CTRL_C, CTRL_C, CTRL_C, CTRL_C];
const PRESSES_AT = [0, 300, 600, 1_800, 2_100];

export const geminiAgent: Agent = {
  kind: 'gemini',
  conversations: geminiConversations,
  name: 'gemini',
  capabilities: geminiCapabilities,
  findBinary: ({ env }) => findAgentBinary({ env, command: 'gemini', pinVariable: 'TETHER_GEMINI_BIN', install: 'npm install -g @google/gemini-cli' }),
  env: ({ env }) => {
    const out = agentEnvironment({ env });
    // CI=true or GITHUB_ACTIONS=true make Gemini headless whatever its terminal (its isHeadlessMode):
    // tether gives it a real one, or `tether gemini` in a CI shell would exit 42. Emptied, not left
    // out: the PTY's child starts from the runner's own environment and takes these on top.
    const marked = HEADLESS_MARKERS.some((key) => key in out);
    for (const key of HEADLESS_MARKERS) if (key in out) out[key] = '';
    // An emptied CI is still "in" the environment, and Gemini's colour library then draws no colour at
    // all: no highlighted option, no reverse-video cursor in a text field, which the screen reader
    // reads a dialog's focus by. The level the terminal alone would give, unless the user chose one.
    if (marked && out.FORCE_COLOR === undefined && out.NO_COLOR === undefined) {
      const level = terminalColourLevel(out);
      if (level > 0) out.FORCE_COLOR = String(level);
    }
    // The user's own GEMINI_CLI_HOME is where their `.gemini` is; a PTY launch's private one (its
    // hooks' env) takes its place and links it. Headless (no hooks) Gemini runs in the user's own.
    if (env.GEMINI_CLI_HOME) out.TETHER_USER_GEMINI_CLI_HOME = env.GEMINI_CLI_HOME;
    if (out.PATH) out.PATH = pathForNodeAgent(out.PATH);
    return out;
  },
  plan: planGeminiLaunch,
  installHooks: ({ endpoint, permissionHook, plan, env }) => {
    const userEnv = { ...env, ...(env.TETHER_USER_GEMINI_CLI_HOME ? { GEMINI_CLI_HOME: env.TETHER_USER_GEMINI_CLI_HOME } : {}) };
    const file = writeHookEndpoint({ endpoint });
    // Every mode's gate is one hook on every tool but the read-only ones: the mode may change later.
    const hooks = geminiHookSettings({ commandFor: (event) => hookCommand({ event, endpointPath: file.endpointPath }), matcher: GATED_TOOLS_MATCHER, permissionHook });
    let home;
    try {
      home = createGeminiHome({ env: userEnv, hooks });
    } catch (error) {
      file.remove();
      throw error;
    }
    return {
      // yolo: the hook is the gate, and the session's mode its policy (gate.ts).
      args: ['--approval-mode', 'yolo'],
      env: { GEMINI_CLI_HOME: home.dir },
      ...(permissionHook ? { gate: createGeminiGate({ allowed: userAllowedTools(userEnv) }) } : {}),
      remove: () => {
        home.remove();
        file.remove();
      },
    };
  },
  hookDialect: geminiHookDialect,
  modes: geminiModes,
  transcript: (options) => createGeminiTranscriptReader(options),
  // A refusal at its own dialog cancels the request ("Request cancelled."), read as an interrupt.
  isRejectedToolResult: () => false,
  screen: geminiScreen,
  hookHidesDialog: true,
  // Gemini takes an Enter within 40 ms of a paste as a newline (its "unsafe paste" window, a React
  // timer that fires late on a busy machine: a prompt typed as it started stayed in its box).
  pasteSettleMs: 500,
  inputAfterSessionStart: true,
  plainVerdicts: true,
  // A reviewer (readOnly) runs in plan mode: read-only, enforced by Gemini headless and by tether's
  // gate in a PTY (gate.ts).
  spawnArgs: ({ model, permissionMode, resumeId, readOnly, addedDirs = [] }) => {
    const mode = readOnly || permissionMode === 'plan' ? 'plan' : permissionMode === 'acceptEdits' ? 'auto_edit' : permissionMode === 'bypassPermissions' ? 'yolo' : null;
    // One `--include-directories=<dir>` a folder: Gemini splits a value at commas, a folder is one value.
    const dirs = addedDirs.map((dir) => `--include-directories=${dir}`);
    return [...(resumeId ? ['--resume', agentResumeId(resumeId)] : []), ...(model ? ['-m', model] : []), ...(mode ? ['--approval-mode', mode] : []), ...dirs];
  },
  // Its workspace, widened to the attachments folder: a photo named by @path is read without its
  // "files outside your workspace: allow this read?" (nobody answers that on the person's behalf).
  attachmentsFolderArgs: (folder) => ['--include-directories', folder],
  headless: createGeminiHeadless,
  endPty: ({ pty, log }) => createEnder({ step: (i) => pty.write(STEPS[i] ?? CTRL_C), at: PRESSES_AT, exited: pty.exited, force: () => pty.kill('SIGTERM'), log }),
};

/** What a terminal's own variables promise (the rule colour libraries apply when CI is not set):
 *  3 truecolor, 2 for 256 colours, 1 for basic colours, 0 none. */
export function terminalColourLevel(env: Record<string, string | undefined>): number {
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  const term = env.TERM ?? '';
  if (/-256(color)?$/i.test(term)) return 2;
  if (/^screen|^xterm|^vt100|^vt220|^rxvt|color|ansi|cygwin|linux/i.test(term)) return 1;
  return 0;
}
