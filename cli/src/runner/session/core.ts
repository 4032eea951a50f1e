// session/core.ts: what every session runner shares, whatever way the agent is launched
// (interactive/session.ts: a PTY; headless/session.ts: the agent's own transport). It owns the log,
// the cleanup scope, the launch plan and the session's identity (tether id, resume state, title),
// the session state the hub sees (registration, patch, status facts, controller), the hub link and
// its outbox, the hook server, the transcript pipeline and the end of the session. The runners own only how claude runs and how
// prompts reach it.
//
//   hooks ──► hook server ──► status, claude session id, model, transcript path, approvals
//   transcript (+ subagents) ──► tail ──► parse ──► message:append (chunks) ──► outbox ──► hub /cli
//                                    └─► title, resume state (TETHER_HOME/claude-sessions)
//
// Invariants: the hub being down never stops claude (no link without a hub; the outbox keeps what
// the hub has not taken). The link starts only when the runner says the identity is known (`-c`
// waits for SessionStart). Every session ends with one session:end, then waits up to EXIT_DRAIN_MS
// for the outbox; everything registered with onCleanup is released on every exit path, last first.
import { recordedAddedDirs } from './added-dirs.ts';
import { machineClaim } from '../../config/machine-claim.ts';
import { basename } from 'node:path';
import { DEFAULT_AGENT, isUuid, type AgentKind, type ChatMessageInput, type PermissionMode, type SessionPatch, type SessionRegistration } from '@tether/shared';
import { agentFor, installedCapabilities, type Agent, type LaunchPlan } from '../../agents/index.ts';
import { createFolderRules } from './folder-rules.ts';
import { createApprovals, type Approvals } from '../requests/approvals.ts';
import type { SessionHooks } from './hook-events.ts';
import { createTranscriptFeed } from './transcript-feed.ts';
import { createElicitations } from '../requests/elicitation.ts';
import { createRequestRegistry } from '../requests/registry.ts';
import { loadResumeState, saveResumeState, type ResumeState } from './resume-state.ts';
import { createSessionTitle } from './title.ts';
import { createAttachmentInbox } from '../../attachments/attachments.ts';
import { withoutPrivateEnv } from '../../config/private-env.ts';
import { createSessionScope, type SessionScope } from './scope.ts';
import { createSessionFacts, type SessionState } from './facts.ts';
import { createSessionLink } from './link.ts';
import { statusFollowsRequests, type StatusTracker } from './status.ts';
import { prepareLaunch } from './launch.ts';
import type { HubLink } from '../../hub-link/link.ts';
import type { Poll } from '../../pace/pace.ts';
import type { RunnerOptions, RunnerResult } from './options.ts';

/** How long a finished session waits for the hub to take what it is owed before exiting. The rest
 *  stays in the on-disk outbox. */
const EXIT_DRAIN_MS = 3_000;
/** Lines (screen rows, stderr lines) quoted as the reason when the agent dies before it was ready. */
const FAILURE_CONTEXT_ROWS = 8;
/** A failure reason is a label on the hub (MAX_LABEL_CHARS in shared/src/limits.ts); longer is refused. */
const REASON_MAX_CHARS = 500;
/** After the agent exited, the transcript is read once more this long after a first read. */
const FINAL_TRANSCRIPT_READ_MS = 150;

export class RunnerStartError extends Error {}

export type { RunnerOptions, RunnerResult };

export type { SessionState };

export type { SessionHooks };

/** "claude exited (code 1) before its prompt appeared:\n<the last context lines>". */
export function describeEarlyExit(options: { agent?: string; exitCode: number; signal: string | null; before: string; lines: string[] }): string {
  const lines = options.lines.slice(-FAILURE_CONTEXT_ROWS);
  return `${options.agent ?? DEFAULT_AGENT} exited (code ${options.exitCode}${options.signal ? `, signal ${options.signal}` : ''}) before ${options.before}${lines.length ? `:\n${lines.join('\n')}` : ''}`;
}

type CoreInit = {
  options: RunnerOptions;
  launchKind: 'pty' | 'headless';
  /** Registration's `deskAttached`, read at every (re)connect. */
  deskAttached: () => boolean;
  /** The runner's prompt that a transcript user line confirms (its id), or null. */
  matchPrompt: (text: string) => string | null;
  /** Runs first when the session fails before the agent started (PTY `-c`: open the link to say so). */
  beforeFailEarly?: () => void;
  /** Adds what only this runner knows to parsed messages (PTY: each tool call's terminal moment). */
  stampMessages?: <M extends ChatMessageInput>(messages: M[]) => M[];
  /** The agent wrote that it was interrupted (Esc, a rejected tool), just now: its turn is over. */
  onInterrupted?: () => void;
  /** The agent wrote that its turn is over (Agent.turnEndsInTranscript). */
  onTurnEnded?: () => void;
};

/** The session's identity: a resumed agent session keeps its tether session (same chat on the hub). */
function sessionIdentity(o: { agent: Agent; options: RunnerOptions }) {
  let plan: LaunchPlan;
  try {
    plan = o.agent.plan(o.options.userArgs);
  } catch (error) {
    throw new RunnerStartError(error instanceof Error ? error.message : String(error));
  }
  // A fork is a new session with a new agent session (told at SessionStart): nothing of the old one's state.
  const resumed = plan.resumeId && !plan.fork ? loadResumeState({ home: o.options.tetherHome, agentSessionId: plan.resumeId }) : null;
  const state: SessionState = {
    id: resumed?.sessionId ?? o.options.env.TETHER_SESSION_ID ?? crypto.randomUUID(),
    status: 'starting',
    // `--resume <search term>` at the desk is claude's picker, not an id: the id comes with SessionStart.
    // An attached session's conversation is the background session's, known before anything runs;
    // a fork's is a new one, told at SessionStart.
    agentSessionId: o.options.attached?.agentSessionId ?? (plan.resumeId && !plan.fork && (isUuid(plan.resumeId) || plan.resumeIdChecked) ? plan.resumeId : null),
    model: plan.model,
    permissionMode: plan.permissionMode,
    usage: resumed?.usage ?? null,
  };
  return { plan, resumed, state };
}

/** Where a transcript is followed from: the resume state's offsets and usage when it is the one that
 *  state was saved for, else its start (whose lines state the whole session's usage again). */
function followFrom(o: { path: string; resumed: ResumeState | null }) {
  const { resumed } = o;
  if (!resumed) return { path: o.path, fromOffset: 0, usage: null };
  return { path: o.path, fromOffset: resumed.offset, usage: resumed.usage ?? null, ...(resumed.subagentOffsets ? { subagentOffsets: resumed.subagentOffsets } : {}) };
}

/** How far the transcript was mirrored, with the title and usage read so far (resume-state.ts). */
function saveSessionState(o: { home: string; state: SessionState; feed: ReturnType<typeof createTranscriptFeed>; title: { title: string; source: ResumeState['titleSource'] } }) {
  const { state, feed } = o;
  const transcriptPath = feed.path();
  if (!state.agentSessionId || !transcriptPath) return;
  saveResumeState({
    home: o.home,
    agentSessionId: state.agentSessionId,
    state: { sessionId: state.id, transcriptPath, offset: feed.offset(), title: o.title.title, titleSource: o.title.source, subagentOffsets: feed.subagentOffsets(), usage: state.usage },
  });
}

/** The agent's transcript → chat on the hub, and what its lines say beyond chat (transcript-feed.ts). */
function createChatFeed(o: {
  agent: Agent;
  init: CoreInit;
  log: (line: string) => void;
  attachmentsFolder?: () => string;
  poll: Poll;
  state: SessionState;
  link: () => HubLink | null;
  facts: ReturnType<typeof createSessionFacts>;
  onToolResult: (result: { toolUseId: string; rejected: boolean }) => void;
  /** The desk refused a call: an MCP form waiting on the phone for it is over. */
  onDeskRejected: () => void;
  onRead: (lines: string[], messages: ChatMessageInput[]) => void;
  onSubagentRead: () => void;
}) {
  const { init, state, log } = o;
  return createTranscriptFeed({
    agent: o.agent,
    log,
    ...(o.attachmentsFolder ? { attachmentsFolder: o.attachmentsFolder } : {}),
    poll: o.poll,
    append: (messages) => o.link()?.push('message:append', { sessionId: state.id, messages }),
    matchPrompt: (text) => init.matchPrompt(text),
    ...(init.stampMessages ? { stampMessages: init.stampMessages } : {}),
    onToolResult: (result) => {
      o.onToolResult(result);
      // Esc at the desk while an MCP server's form waits on the phone: claude keeps the hook
      // open but records the call as rejected; that is the desk's answer.
      if (result.rejected) o.onDeskRejected();
    },
    onInterrupted: () => init.onInterrupted?.(),
    onTurnEnded: () => init.onTurnEnded?.(),
    // `/model` typed at the desk or by the queue for the phone: the model is the one the agent says
    // it set ("Switch model?" may have kept the old one). Re-read history (a resume) says the same.
    onModel: (model) => {
      if (model === state.model) return;
      log(`model: ${model} (the agent's own /model)`);
      state.model = model;
      o.facts.patch({ model });
    },
    // Set or kept, the request has ended: a phone's chip waiting on it stops (after the patch).
    onCommandFinished: (finished) => o.facts.finishedCommand(finished),
    // Before onRead: the resume state saved after this read holds these totals with its offset.
    onUsage: (usage) => o.facts.followUsage(usage),
    // The hub keeps the limit and decides what happens at its reset (hub/src/usage-limits).
    onLimit: (limit) => o.facts.patch({ limit }),
    onRead: ({ lines, messages }) => o.onRead(lines, messages),
    onSubagentRead: o.onSubagentRead,
  });
}

/** An agent session named before its transcript was written (a new Codex thread): the hub hears of
 *  it with the transcript's first line, because an agent cannot resume a session it never wrote, and
 *  the hub offers to resume (Resume, `tether attach` of a headless session) whatever it was told. */
function createUnwrittenSession(o: { state: SessionState; patch: (p: SessionPatch) => void }) {
  let pending: string | null = null;
  return {
    name(id: string) {
      pending = id;
    },
    written() {
      if (pending === null) return;
      o.state.agentSessionId = pending;
      pending = null;
      o.patch({ agentSessionId: o.state.agentSessionId });
    },
  };
}

/** The session failed before the agent ran: said on the hub, then thrown to the command (the desk). */
async function failSession(o: { reason: string; before: (() => void) | undefined; state: SessionState; status: StatusTracker; hub: ReturnType<typeof createSessionLink>; scope: SessionScope }): Promise<never> {
  o.before?.();
  o.status.publish({ kind: 'exited', failed: true });
  o.hub.link()?.push('session:end', { sessionId: o.state.id, status: 'failed', exitCode: null, reason: o.reason.slice(0, REASON_MAX_CHARS) });
  await o.hub.link()?.drain(EXIT_DRAIN_MS);
  o.hub.stop();
  o.scope.cleanup();
  throw new RunnerStartError(o.reason);
}

/** The agent exited: the last transcript lines, the prompts it never took, session:end, the drain. */
async function finishSession(o: {
  exitCode: number;
  failure: string | null;
  /** Who asked for the stop (a signal, the phone's End), if anyone did. */
  stopAsked: string | null;
  /** What was asked at the end failed (scope.stopFailed): the session ends failed with it. */
  stopFailure: string | null;
  /** The runner's ender had begun ending the agent (Ender.began) when it exited. */
  endBegan?: boolean | undefined;
  closePrompts: () => void;
  beforeEnd?: (() => Promise<unknown>) | undefined;
  state: SessionState;
  status: StatusTracker;
  feed: ReturnType<typeof createTranscriptFeed>;
  hub: ReturnType<typeof createSessionLink>;
  scope: SessionScope;
  stopElicitations: () => void;
}): Promise<RunnerResult> {
  const { exitCode, state, feed, hub } = o;
  // An exit a person asked for is the end they wanted, even before the agent's prompt was ready:
  // "exited before its prompt appeared" describes an agent that died on its own.
  const failure = o.stopFailure ?? (o.stopAsked ? null : o.failure);
  if (o.stopAsked && o.failure) o.scope.log(`stopped on request (${o.stopAsked}) before the agent was ready: ended, not failed`);
  o.stopElicitations();
  // Pick up the last lines the agent wrote before it exited (a write may land just after its exit).
  if (feed.tailing()) {
    await feed.poke();
    await new Promise((resolve) => setTimeout(resolve, FINAL_TRANSCRIPT_READ_MS));
    await feed.poke();
  }
  o.closePrompts();
  o.status.publish({ kind: 'exited', failed: failure !== null });
  if (o.beforeEnd) await o.beforeEnd();
  hub.link()?.push('session:end', { sessionId: state.id, status: failure ? 'failed' : 'ended', exitCode, reason: failure ? failure.slice(0, REASON_MAX_CHARS) : null });
  const drained = (await hub.link()?.drain(EXIT_DRAIN_MS)) ?? true;
  if (!drained) o.scope.log('hub did not take everything before exit; the rest stays in the outbox');
  hub.stop();
  o.scope.cleanup();
  return { exitCode: runnerExitCode({ exitCode, failure, endedAsAsked: o.stopAsked !== null && o.endBegan === true }), sessionId: state.id, failure };
}

/** The runner's own exit status: whether it did what it was asked. An agent its ender was ending
 *  when it exited ended as asked, however it died: the ender's Ctrl-C that lands after the agent
 *  gave its terminal back (cooked again) is a SIGINT to it, its last resort a SIGTERM, and bun-pty
 *  reports any signal death as code 1 (the signal lost). The agent's code as read still goes to the
 *  hub with the session's end ('ended', not 'failed'), and to the log. */
function runnerExitCode(o: { exitCode: number; failure: string | null; endedAsAsked: boolean }): number {
  if (o.failure) return o.exitCode === 0 ? 1 : o.exitCode;
  return o.endedAsAsked ? 0 : o.exitCode;
}

/** What the hub is told at every (re)connect: the machine the session belongs to (the daemon's, or
 *  this desk's when a daemon ran here, proved by the machine's secret), its agent and its state now. */
function registrationOf(o: { init: CoreInit; agent: Agent; state: { id: string; status: SessionRegistration['status']; agentSessionId: string | null; model: string | null; permissionMode: SessionRegistration['permissionMode'] }; title: () => string; createdAt: number; addedDirs: string[] }): () => SessionRegistration {
  const { init, agent, state } = o;
  const claim = machineClaim(init.options.env);
  // Once: the installed version's record (a cached `--version` for claude's fork).
  const capabilities = init.options.attached?.capabilities ?? installedCapabilities({ agent, env: init.options.env, tetherHome: init.options.tetherHome });
  return () => ({
    id: state.id,
    machineId: claim?.machineId ?? null,
    ...(claim?.machineProof ? { machineProof: claim.machineProof } : {}),
    title: o.title(),
    cwd: init.options.cwd,
    launchKind: init.launchKind,
    agent: agent.kind,
    capabilities,
    status: state.status,
    agentSessionId: state.agentSessionId,
    model: state.model,
    permissionMode: state.permissionMode,
    deskAttached: init.deskAttached(),
    createdAt: o.createdAt,
    addedDirs: o.addedDirs,
  });
}

export function createSessionCore(init: CoreInit) {
  const { options } = init;
  const agent: Agent = agentFor(options.agent ?? DEFAULT_AGENT);
  // The agent gets the runner's environment less tether's own secrets (the hub token, the session's identity).
  const env = agent.env({ env: withoutPrivateEnv(options.env) });
  const scope = createSessionScope({ logFile: options.logFile, tetherHome: options.tetherHome, agentName: agent.name });
  const { log } = scope;
  const identity = sessionIdentity({ agent, options });
  let { plan, resumed } = identity;
  const { state } = identity;
  // A turn's end is read from polls that would sleep in a quiet spell: not while a turn runs.
  scope.pace.awakeWhile(() => state.status === 'thinking' || state.status === 'waiting');
  const createdAt = Date.now();
  const titleFrom = (from: ResumeState | null) =>
    createSessionTitle({
      initial: from?.title ? { title: from.title, source: from.titleSource ?? 'prompt' } : { title: basename(options.cwd), source: 'cwd' },
      onChange: (next) => {
        facts.patch({ title: next });
        saveState();
      },
    });
  let title = titleFrom(resumed);
  // The folders the agent was given, as the hub keeps them for a resume from afar.
  const addedDirs = recordedAddedDirs({ dirs: plan.addedDirs, cwd: options.cwd, log });
  const registration = registrationOf({ init, agent, state, title: () => title.title, createdAt, addedDirs });
  const hub = createSessionLink({ options, sessionId: () => state.id, registration, log });
  const facts = createSessionFacts({ state, link: hub.link });
  /** Every request to a person, whoever owns it (approvals, MCP forms, the PTY's dialogs): answers
   *  are routed by id, and all are sent again when the link comes back. */
  const requests = createRequestRegistry({ sessionId: () => state.id, link: hub.link });
  statusFollowsRequests({ requests, status: facts.status });
  /** MCP servers asking for input (the Elicitation hook); the session waits on a person meanwhile. */
  const elicitations = createElicitations({
    sessionId: () => state.id,
    link: hub.link,
    requests,
    log,
  });
  scope.onCleanup(() => elicitations.stop());
  /** A prompt's files: fetched from the hub when it is delivered (attachments/). */
  const attachments = createAttachmentInbox({ hub: options.hub, sessionId: () => state.id, log });
  scope.onCleanup(() => attachments.stop());
  /** Rules the person accepted for this folder: the agent writes each at its next call (folder-rules.ts). */
  const folderRules = createFolderRules({ file: agent.projectRules, folder: options.cwd, sessionId: () => state.id, link: hub.link, log });

  /** Reported on the hub and thrown to the command, which prints it at the desk. */
  const failEarly = (reason: string): Promise<never> => failSession({ reason, before: init.beforeFailEarly, state, status: facts.status, hub, scope });

  // ---- transcript → chat
  const unwritten = createUnwrittenSession({ state, patch: facts.patch });
  /** Made by createApprovals (below); transcript tool results reach it. */
  let approvals: Approvals | null = null;
  const feed = createChatFeed({
    agent,
    init,
    log,
    // A PTY agent given the attachments folder at launch may write its files' paths relative to it.
    ...(init.launchKind === 'pty' && agent.attachmentsFolderArgs ? { attachmentsFolder: attachments.folder } : {}),
    poll: scope.pace.poll,
    state,
    link: hub.link,
    facts,
    onToolResult: (result) => approvals?.toolResult(result),
    onDeskRejected: () => elicitations.interrupted(),
    onRead: (lines, messages) => {
      if (lines.length > 0) unwritten.written();
      title.take(lines, messages);
      saveState();
    },
    onSubagentRead: () => saveState(),
  });
  scope.onCleanup(() => feed.stop());
  const saveState = () => saveSessionState({ home: options.tetherHome, state, feed, title });

  return {
    agent,
    env,
    log,
    pace: scope.pace,
    onCleanup: scope.onCleanup,
    stopAsked: scope.stopAsked,
    stopFailed: scope.stopFailed,
    stopOnSignals: scope.stopOnSignals,
    /** The plan before the hooks are installed (its flags; prepareLaunch gives the final args). */
    get plan() {
      return plan;
    },
    /** The resume state this session continues, if any. */
    get resumed() {
      return resumed;
    },
    state,
    /** `-c`: SessionStart named an agent session tether has seen; this becomes its tether session. */
    adopt(known: ResumeState) {
      resumed = known;
      state.id = known.sessionId;
      state.usage = known.usage ?? null;
      title = titleFrom(known);
    },
    patch: facts.patch,
    /** The agent's session id, told to the hub once its transcript has a line (see above). */
    nameUnwrittenSession: unwritten.name,
    finishedCommand: facts.finishedCommand,
    /** Facts that decide the session's status (status.ts); the status itself is never written. */
    status: facts.status,
    followEffort: facts.followEffort,
    /** The agent's mode as its footer or a control answer shows it (hooks report theirs themselves). */
    followMode: (mode: PermissionMode) => facts.followModeOf({ permission_mode: mode }),
    controller: facts.controller,
    link: hub.link,
    startLink: hub.start,
    /** Files a person saved from the phone since the last prompt (file-edits/edited-note.ts). */
    edited: hub.edited,
    elicitations,
    /** The session's requests to a person: hub answers and reconnects go through it. */
    requests,
    folderRules,
    attachments,
    reportSlashCommands: hub.reportSlashCommands,
    /** Approvals with this session's id, link and log. */
    createApprovals(o: Pick<Parameters<typeof createApprovals>[0], 'onPlanApproved'>): Approvals {
      const made = createApprovals({ sessionId: () => state.id, link: hub.link, requests, log, describe: (d) => feed.describe(d), ruleFor: folderRules.updateFor, ...o });
      scope.onCleanup(() => made.stop());
      approvals = made;
      return made;
    },
    failEarly,
    /** The agent's binary, the hook server and the hooks the agent will call, and its arguments. */
    async prepareLaunch(o: { approvals: Approvals; hooks: SessionHooks }): Promise<{ binary: string; plan: LaunchPlan; hearing: Promise<void> | null }> {
      const launch = await prepareLaunch({ ...o, agent, options, launchKind: init.launchKind, env, plan, scope, state, facts, elicitations, link: hub.link, pokeTranscript: feed.poke, reportSlashCommands: hub.reportSlashCommands, failEarly, attachmentsFolder: attachments.folder });
      plan = launch.plan;
      return launch;
    },
    /** Tails `path` (and its subagents) from the start, or from the resume state's offsets when the
     *  runner says this transcript is the one that state was saved for. */
    followTranscript(o: { path: string; continued: boolean }) {
      const switched = feed.follow(followFrom({ path: o.path, resumed: o.continued ? resumed : null }));
      log(`transcript: ${o.path}${!switched ? ` (already tailed: on from offset ${feed.offset()})` : o.continued ? ' (continued from the resume state)' : ''}`);
    },
    /** The transcript being tailed (null before SessionStart named one). */
    transcript: () => ({ path: feed.path(), tailing: feed.tailing() }),
    /** The agent exited: the last transcript lines, the prompts it never took, session:end, the drain. */
    finish: (o: { exitCode: number; failure: string | null; endBegan?: boolean; closePrompts: () => void; beforeEnd?: () => Promise<unknown> }): Promise<RunnerResult> =>
      finishSession({ ...o, stopAsked: scope.stopAskedBy(), stopFailure: scope.stopFailure(), state, status: facts.status, feed, hub, scope, stopElicitations: () => elicitations.stop() }),
  };
}

export type SessionCore = ReturnType<typeof createSessionCore>;
