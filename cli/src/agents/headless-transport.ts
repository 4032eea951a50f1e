// headless-transport.ts: what an agent brings to a headless session (launch kind `headless`, no
// terminal): a transport that starts its protocol on the process's pipes, sends a turn, interrupts,
// switches what it can, and tells the runner what happened as neutral events. Everything around it
// (hub link, session facts, transcript → chat, turns, requests to a person, the hub's commands,
// status, the end) is runner/headless/, the same for every agent.
//
//   runner/headless ──start(pipes)──► transport ──its protocol──► agent process
//          ▲                                │
//          └──────── HeadlessEvents ◄───────┘  ready · turn started/ended · session id · transcript · ask
//
// Types only, so an agent implements its transport without importing the runner.
import type { AskedBy, EffortLevel, ElicitationAnswer, ElicitationInput, PermissionMode, SlashCommand } from '@tether/shared';
import type { ContentBlock } from '../attachments/attachments.ts';
import type { LaunchPlan } from './launch-plan.ts';
import type { Verdict } from './verdict.ts';

/** One turn as the runner hands it over: `text` (a prompt's files named in it when the agent takes
 *  them as paths), `content` (the text, or the files' content blocks then the text, for an agent that
 *  takes blocks) and `images` (local paths of its images, for an agent that takes paths). */
export type HeadlessTurn = { text: string; content: string | ContentBlock[]; images: string[] };

/** A question the agent puts to a person (a permission; a question or plan is a tool call too). */
/** `askedBy`: a sub-agent of the agent asks, not the session's own (the phone says which). */
export type HeadlessRequest = { id: string; toolName: string; toolInput: Record<string, unknown>; toolUseId: string | null; askedBy?: AskedBy | null };

/** An MCP server's form the agent puts to a person (its own request, not tether's hook). */
export type HeadlessElicitation = { id: string; input: ElicitationInput };

/** What the transport tells the runner. */
export type HeadlessEvents = {
  /** The agent said something (a line, a notification): the runner's pace wakes. */
  activity(): void;
  /** The agent takes turns now; `slashCommands`: the ones it says it takes. */
  ready(o?: { slashCommands?: SlashCommand[] }): void;
  turnStarted(): void;
  /** The agent's turn is over (done or interrupted). */
  turnEnded(): void;
  /** The agent refused a turn: every prompt held goes back with `reason`. */
  turnRefused(reason: string): void;
  /** The agent's own session id, and the model it opened with. `written`: its transcript already
   *  exists (a resume); else the hub hears of the id with the transcript's first line. */
  session(o: { id: string; written: boolean; model?: string | null }): void;
  /** The file the agent writes its transcript to. */
  transcript(path: string): void;
  /** Put to a person; resolves with the answer, null when nobody could be asked (the transport says
   *  no: fail closed), or 'withdrawn' when the agent stopped waiting first (withdraw) or the session
   *  ended. */
  ask(request: HeadlessRequest): Promise<Verdict | null | 'withdrawn'>;
  /** An MCP server's form, put to a person as an `elicitation` request; resolves with the answer that
   *  fits the form, null when nobody answered it here (the transport declines: fail closed), or
   *  'withdrawn' when the agent stopped waiting first (withdraw) or the session ended. */
  elicit(request: HeadlessElicitation): Promise<ElicitationAnswer | null | 'withdrawn'>;
  /** The agent no longer waits for request `id` (a question or a form). */
  withdraw(id: string): void;
  /** The agent's own TUI may join this session's live thread at the machine's desk: it listens on
   *  `url` (127.0.0.1) for a client bearing `token`; `transcript`: the file its conversation is in. The runner keeps both in a 0600 file of its
   *  home (desk-join/) for the desk's verb, never in a log. */
  joinable(o: { url: string; token: string; agentSessionId: string; transcript: string }): void;
};

/** The pipes of the agent's process. `onStderr`: each chunk of its stderr as text, for a transport
 *  whose process says something there it needs (Codex's app server: the port it listens on).
 *  `stop`: SIGTERM, for a transport whose protocol is not on stdin, so closing stdin ends nothing. */
export type HeadlessPipes = {
  stdin: { write(data: string): unknown; flush(): unknown; end(): unknown };
  stdout: ReadableStream<Uint8Array>;
  onStderr(listener: (text: string) => void): void;
  stop(): void;
};

export type HeadlessTransport = {
  /** tether's hooks are installed for it (its hook server: session id, transcript path, MCP forms). */
  hooks: boolean;
  /** How a prompt's files reach it: content blocks in the turn, or local files whose images it reads. */
  files: 'blocks' | 'paths';
  /** "… exited before <readyIs>", in the failure reason of an agent that never became ready. */
  readyIs: string;
  /** Its command line: the plan's arguments (with the hooks' when `hooks`) as it runs headless. */
  args(plan: LaunchPlan): string[];
  /** The process started: speak its protocol on these pipes. Resolves once its stdout has ended. */
  start(pipes: HeadlessPipes): Promise<void>;
  /** False while a turn cannot be written (no input attached, or closed). */
  canSend?(): boolean;
  send(turn: HeadlessTurn): void;
  /** The turn under way stops (or the next one, the moment it has started). */
  interrupt(): void;
  /** Its input is closed: it ends when it has read it to the end. */
  closeInput(): void;
  /** The model for what follows. */
  setModel(model: string): void;
  /** The permission mode, where the agent takes it headless; resolves with its answer. */
  setMode?(mode: PermissionMode): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** The effort for the next turns, where it takes one; returns the level it took. */
  setEffort?(level: EffortLevel): string;
  /** Lines saying why it never became ready, beyond its stderr. */
  failureLines?(): string[];
};

export type HeadlessContext = {
  log: (line: string) => void;
  cwd: string;
  /** The environment the agent runs with (where it keeps its state: Gemini's `~/.gemini`). */
  env: Record<string, string>;
  /** A folder of tether's (its home) where a transport keeps files of its own across runs (the chat
   *  log of an ACP agent whose transcript tether cannot read). */
  stateDir: string;
  userArgs: readonly string[];
  /** The launch plan (read when the process starts: the hooks may have changed it). */
  plan: () => LaunchPlan;
  events: HeadlessEvents;
};

/** Made once per headless session, before its process starts. */
export type HeadlessTransportFactory = (context: HeadlessContext) => HeadlessTransport;
