// agent.ts: what differs between the coding agents tether runs, and nothing else. The runner, the PTY,
// the hub link, the hub, the protocol and the web are agent-neutral; each agent's room
// (agents/claude/, agents/codex/) fills this in, and index.ts is the only file that names them all.
//
//   runner ──agentFor(kind)──► Agent: binary, env, launch plan, hooks it calls, transcript → chat,
//                                     how its screen is read, and what only some agents can do
import { AgentSessionIdSchema, type AgentCapabilities, type AskedBy, type AgentKind, type ChatMessageInput, type PermissionMode, type SessionUsage, type SlashCommand } from '@tether/shared';
import type { HookEndpoint } from '../hooks/events.ts';
import type { PromptReader, ScreenRow } from '../screen/prompt-state.ts';
import type { ScreenDialog } from '../dialogs/read-dialog.ts';
import type { ScreenModel } from '../screen/screen.ts';
import type { Poll } from '../pace/pace.ts';
import type { HeadlessTransportFactory } from './headless-transport.ts';
import type { AgentBackground } from './background.ts';
import type { LaunchPlan } from './launch-plan.ts';
import type { HookDialect, PermissionUpdate } from './verdict.ts';
import type { Ender } from './ender.ts';
import type { ConversationSource } from './conversations.ts';

export type { LaunchPlan };

export class LaunchArgsError extends Error {}

/** A resume id about to go on an agent's command line, checked against the agent session id format
 *  (a UUID) once more: the daemon refuses another before it gets here; this throws rather than let
 *  `--dangerously-skip-permissions` or any other flag through as an "id". */
export function agentResumeId(id: string): string {
  const parsed = AgentSessionIdSchema.safeParse(id);
  if (!parsed.success) throw new LaunchArgsError(`resume id ${JSON.stringify(id.slice(0, 60))}: ${parsed.error.issues[0]?.message ?? 'not an id'}`);
  return parsed.data;
}

/** The hooks the agent will call for this launch: arguments to add (after the user's, or before them
 *  with `prepend`: a subcommand like `codex resume` must stay where the user put it), and files to
 *  remove after. */
export type HookInstall = {
  args: string[];
  prepend?: boolean;
  remove(): void;
  /** Variables the agent needs to find them (Gemini: GEMINI_CLI_HOME). */
  env?: Record<string, string>;
  /** What must answer before the agent starts (opencode 1.17.0: the server its TUI attaches to);
   *  rejected, the launch fails with its reason. */
  ready?: Promise<void>;
  /** Its permission hook is the only gate (the agent itself runs everything: Gemini in yolo), so the
   *  session's permission mode is this gate's policy (HookGate). */
  gate?: HookGate;
  /** Settles once tether hears the agent through what these hooks set up (opencode: its server's
   *  event stream): the session is ready, and prompts are typed, only after it, or what was typed
   *  before would never reach the chat. */
  hearing?: Promise<void>;
};

/** A call the permission hook reports, as the gate sees it. `mode`: the session's permission mode
 *  now (the phone's, or the desk's read back); `payload`: the hook's own, in the agent's words;
 *  `agentAsksToo`: the desk took the agent out of the mode where it runs whatever the gate allows,
 *  so its own policy may ask again after an allow. */
export type GateCall = { mode: PermissionMode; payload: Record<string, unknown>; agentAsksToo: boolean };
/** What the gate decides before anyone is asked: run it, refuse it (the agent reads `message`),
 *  ask the person (the phone), or hand it to the agent's own dialog (which the dialog bridge puts to
 *  the phone: one question, not two). */
export type GateAnswer = { behavior: 'allow' } | { behavior: 'deny'; message: string } | { behavior: 'ask-person' } | { behavior: 'ask-agent' };
export type HookGate = (call: GateCall) => GateAnswer;

export type { HookDialect };

/** What one read of transcript lines gave, beyond the chat. */
export type TranscriptRead = {
  messages: ChatMessageInput[];
  /** The model the agent says it switched to in these lines (claude's `/model` output). */
  model: string | null;
  /** A plan file the agent named (claude's plan mode). */
  planFile: string | null;
  /** Commands typed into the agent that ran to their end in these lines, in order. */
  commands: Array<{ command: '/model'; args: string; outcome: 'applied' | 'kept' }>;
  /** The agent wrote that its turn is over (Codex: task_complete, turn_aborted). */
  turnEnded?: boolean;
  /** The session's token usage after these lines, present only when they changed it (one value per
   *  read, whatever the number of lines). */
  usage?: SessionUsage;
  /** The agent said it is at its usage limit until `resetsAt` (epoch ms), or null: it answered again.
   *  Present only when these lines changed it (agents/usage-limit.ts). */
  limit?: { resetsAt: number } | null;
};

export type TranscriptReader = {
  read(lines: string[], context: { matchPrompt?: (text: string) => string | null; onBadLine?: (reason: string) => void }): TranscriptRead;
};

export type AgentScreen = {
  readPrompt: PromptReader;
  readDialog(rows: readonly ScreenRow[]): ScreenDialog | null;
  /** The effort level its footer shows, if it shows one. */
  effort?(text: string): string | undefined;
  /** It drew that it was suspended (Ctrl-Z at the desk). */
  suspended?(text: string): boolean;
  /** The permission mode its footer names at an idle, empty prompt (null: it names none). */
  footerMode?(rows: readonly ScreenRow[]): PermissionMode | null;
  /** For an agent whose mode is tether's gate (HookInstall.gate): whether its own approval policy
   *  may ask after the gate allowed (the desk took it out of the mode that runs everything), read at
   *  an idle, empty prompt; null when the screen does not say. */
  ownPolicyAsks?(rows: readonly ScreenRow[]): boolean | null;
};

export type Agent = {
  kind: AgentKind;
  /** The command's name, in messages at the desk and on the hub. */
  name: string;
  /** What the phone may do with its sessions: sent with session:register and the daemon's machine
   *  registration; the hub and the web decide from it, never from `kind`. */
  capabilities: AgentCapabilities;
  findBinary(options: { env: NodeJS.ProcessEnv }): string;
  /** The environment it runs with (the user's, plus what tether needs). */
  env(options: { env: NodeJS.ProcessEnv }): Record<string, string>;
  /** Reads the user's arguments; throws LaunchArgsError for one tether cannot run with. */
  plan(userArgs: readonly string[]): LaunchPlan;
  /** `permissionHook`: ask the hub from the PermissionRequest hook (PTY sessions). */
  installHooks(options: { endpoint: HookEndpoint; permissionHook: boolean; plan: LaunchPlan; env: Record<string, string>; /** tether's own state folder (a chat log of its own: opencode). */ tetherHome?: string; cwd?: string }): HookInstall;
  /** Its hooks' dialect, when it is not claude's (whose shape Codex shares). */
  hookDialect?: HookDialect;
  /** A reader per session (it may keep state between reads). `usage`: what the session had used
   *  before the first line this reader will see (a resume going on from a saved offset), for an agent
   *  whose lines state each request's usage (claude) to count on from; one whose lines state running
   *  totals (Codex) reads them as they are. */
  transcript(options?: { usage?: SessionUsage | null; /** The folder given by attachmentsFolderArgs. */ attachmentsFolder?: string }): TranscriptReader;
  /** Tool results that say the person refused the call. */
  isRejectedToolResult(block: { isError: boolean; content: string; structured?: unknown }): boolean;
  /** Sidechain transcripts (subagents) next to the main one, when the agent writes them. */
  subagentDir?(transcriptPath: string): string;
  screen: AgentScreen;
  /** How a PTY prompt's images reach it. Default: named in the text like any file (claude's
   *  `@path`, which claude reads as an image). `paste-path`: each image's path pasted alone before the
   *  text, which its composer turns into an image attachment (Codex's "[Image #1]"). */
  ptyImages?: 'paste-path';
  /** The capabilities of the installed binary, where they differ by its version; absent:
   *  `capabilities` for every version (every agent today). */
  capabilitiesOf?(o: { binary: string; env: Record<string, string | undefined>; /** Where its version is cached. */ tetherHome?: string }): AgentCapabilities;
  /** PTY: arguments that let the agent read the files under `folder` (the session's attachments)
   *  without asking anyone, which it would for a file outside its workspace (Gemini). */
  attachmentsFolderArgs?(folder: string): string[];
  /** Typed at an idle prompt to switch model, when the agent has such a command. */
  modelCommand?(model: string): string;
  /** Typed at an idle prompt to set effort. */
  effortCommand?(level: string): string;
  /** Changes the permission mode the way its desk does (keys), and reads where it ended. */
  modes?: {
    /** `mode`: where it is now when its screen cannot show it (a gate's policy is tether's own). */
    switchTo(options: { target: PermissionMode; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void }): Promise<{ ok: true; mode?: PermissionMode } | { ok: false; reason: string }>;
    current(screen: Pick<ScreenModel, 'state'>): Promise<PermissionMode | null>;
  };
  /** Switches model and effort the way its desk does (a picker it reads between keys), when it takes
   *  no `modelCommand` line. `model` null keeps the current model, `effort` null its current level.
   *  Called at an idle, empty prompt; says what it switched to (the agent's own names). */
  models?: {
    switchTo(options: { model: string | null; effort: string | null; screen: Pick<ScreenModel, 'state'>; write: (data: string) => void }): Promise<{ ok: true; model: string; effort: string | null } | { ok: false; reason: string }>;
  };
  /** After the hub approved a plan: the agent's own plan dialog still on screen, confirmed; while
   *  that runs, `covers` says which dialog on screen is the approved plan's (never asked again). */
  confirmPlan?(options: { screen: Pick<ScreenModel, 'state'>; write: (data: string) => void }): { stop(): void; done: Promise<boolean>; covers(screenText: string): boolean };
  /** A status the agent writes for itself (claude's status file), watched as a second source. */
  /** `writtenAt`: when the agent wrote that status (ms since the epoch), null when unknown. */
  watchStatus?(options: { env: Record<string, string>; pid: number; sessionId: () => string | null; poll: Poll; onChange: (status: 'idle' | 'busy' | 'waiting' | null, writtenAt: number | null) => void }): { stop(): void };
  /** Its Stop hook runs before the turn is over (Codex writes task_complete after it): the session
   *  is idle only once the transcript says so (TranscriptRead.turnEnded). An End or a key in between
   *  would interrupt a turn that had answered. */
  turnEndsInTranscript?: boolean;
  /** Its permission hook takes no edited input and no session rules (Codex: reserved, and they fail
   *  closed): an allow that carries an edit is refused rather than run unedited, a rule is dropped. */
  plainVerdicts?: boolean;
  /** Which of its sub-agents asks a permission request, from the hook's payload (null: the session's
   *  own agent, or it cannot tell). `mainSessionId`: the session's own agent session. */
  askedBy?(options: { payload: Record<string, unknown>; mainSessionId: string | null }): AskedBy | null;
  /** While its permission hook waits it draws no dialog of its own (Codex: "Running hook"), so a key
   *  at the desk hands the question back to its dialog (approvals.handToDesk). */
  hookHidesDialog?: boolean;
  /** How long after a paste its input takes Enter as a submit rather than a newline, when longer than
   *  the runner's default (Gemini: an Enter inside its "unsafe paste" window is a newline). */
  pasteSettleMs?: number;
  /** It takes input only once its SessionStart hook has run, though its input is drawn before (Gemini
   *  draws its input, then runs the hook; an Enter meanwhile is lost, the text left in its box): the
   *  session is ready, and prompts are typed, only after both (runner/start-gate.ts). */
  inputAfterSessionStart?: boolean;
  /** Ends it the way its own desk does when a person asks (the phone's End, `tether stop`). */
  endPty(options: { pty: { write(data: string): void; kill(signal?: string): void; exited: Promise<unknown> }; log: (line: string) => void }): Ender;
  /** The pid of a live process of this agent already running the agent session `sessionId` here
   *  (resuming it again would fork it), or null. */
  liveOwner?(options: { env: NodeJS.ProcessEnv; sessionId: string }): number | null;
  /** Its saved conversations on this machine, for the daemon's outside index (conversations.ts). */
  conversations?: ConversationSource;
  /** The slash commands it takes in a PTY session (it prints no list of its own there). */
  slashCommands?(options: { binary: string; env: Record<string, string>; cwd: string; tetherHome: string }): SlashCommand[];
  /** Its own arguments for a session started from afar (`tether daemon`): model, mode, resume, and
   *  `readOnly` (a reviewer: it reads and reports, anything else it wants is asked; capabilities.readOnly). */
  spawnArgs(o: { model: string | null; permissionMode: PermissionMode | null; resumeId: string | null; readOnly?: boolean; addedDirs?: readonly string[]; /** Only where capabilities.fork.supported. */ fork?: boolean }): string[];
  /** The headless launch kind (no terminal), when the agent has one: its transport; the session
   *  around it is runner/headless/ (headless-transport.ts). */
  headless?: HeadlessTransportFactory;
  /** Sessions it runs on its own in the background, which tether attaches to (the attached launch
   *  kind, runner/attached/), when it has them. */
  background?: AgentBackground;
  /** Its project rule file, where a rule the person accepted is written by the agent itself
   *  (capabilities.relays.projectRules; shared project-rules.ts). */
  projectRules?: ProjectRuleFile;
};

/** A rule as the runner hands it on: the agent's tool and what the rule says. */
export type ProjectRuleRef = { toolName: string; ruleContent: string };

/** An agent's project rule file (claude: `.claude/settings.local.json`), as tether touches it. */
export type ProjectRuleFile = {
  /** Why the agent must not be told to write a rule into `folder`'s file now (a link, not JSON), or null. */
  writeProblem(o: { folder: string }): string | null;
  /** What goes with an allow so that the agent writes the rule into that file itself. */
  update(rule: ProjectRuleRef): PermissionUpdate;
  /** Whether the file has the rule's entry. */
  holds(o: { folder: string; rule: ProjectRuleRef }): boolean;
  /** How long after a change of the file the running agent has read it again (claude watches its
   *  settings files and waits for a write to settle): a removal is reported once it took effect. */
  seenWithinMs: number;
  /** Takes exactly the rule's entry out of the file (`removed: false`: it was not there). */
  remove(o: { folder: string; rule: ProjectRuleRef }): { removed: boolean } | { error: string };
};
