// session-core.ts: what every session runner shares, whatever way claude is launched (runner.ts:
// PTY, headless.ts: `claude -p` stream-json). It owns the log, the cleanup scope, the launch plan and
// the session's identity (tether id, resume state, title), the session state the hub sees
// (registration, patch, setStatus, controller), the hub link and its outbox, the hooks, the
// transcript pipeline and the end of the session. The runners own only how claude runs and how
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
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { EffortLevelSchema, isFinalStatus, PermissionModeSchema, type AgentKind, type ChatMessageInput, type EffortLevel, type PermissionMode, type SessionCommandFinished, type SessionPatch, type SessionRegistration, type SessionStatus } from '@tether/shared';
import { agentFor, type Agent, type LaunchPlan } from '../agents/index.ts';
import type { HookInstall } from '../agents/agent.ts';
import { startHookServer } from '../hooks/server.ts';
import { openOutbox, type Outbox } from '../hub-link/outbox.ts';
import { connectHubLink, type HubCommandHandlers, type HubLink } from '../hub-link/link.ts';
import { createPace } from '../pace/pace.ts';
import { createApprovals, type Approvals } from './approvals.ts';
import { createHookHandler, type SessionHooks } from './hook-events.ts';
import { createTranscriptFeed } from './transcript-feed.ts';
import { createControllerTracker } from './controller.ts';
import { createElicitations } from './elicitation.ts';
import { loadResumeState, saveResumeState, type ResumeState } from './resume-state.ts';
import { createSessionTitle } from './session-title.ts';
import { createWorkspaceReader } from '../workspace/workspace.ts';
import { createAttachmentInbox } from '../attachments/attachments.ts';
import type { SlashCommand } from '@tether/shared';

/** How long a finished session waits for the hub to take what it is owed before exiting. The rest
 *  stays in the on-disk outbox. */
const EXIT_DRAIN_MS = 3_000;
/** Lines (screen rows, stderr lines) quoted as the reason when claude dies before it was ready. */
const FAILURE_CONTEXT_ROWS = 8;
/** A failure reason is a label on the hub (MAX_LABEL_CHARS in shared/src/limits.ts); longer is refused. */
const REASON_MAX_CHARS = 500;
/** A hook can run a moment before claude appends the line it reports; the transcript is read again
 *  this long after each hook. */
const TRANSCRIPT_LATE_WRITE_MS = 40;
/** After claude exited, the transcript is read once more this long after a first read. */
const FINAL_TRANSCRIPT_READ_MS = 150;

export class RunnerStartError extends Error {}

export type RunnerOptions = {
  userArgs: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  hub: { url: string; token: string } | null;
  tetherHome: string;
  /** `attached`: the desk terminal drives the PTY (stdin TTY). `headless`: output goes only to the hub. */
  desk: 'attached' | 'headless';
  /** Where diagnostics go (never the desk: the TUI owns it). */
  logFile?: string;
  /** `headless`: the agent's own headless mode (claude: `claude -p` with stream-json), no terminal. Default `pty`. */
  launchKind?: 'pty' | 'headless';
  /** The coding agent to run. Default `claude`. */
  agent?: AgentKind;
};

export type RunnerResult = { exitCode: number; sessionId: string; failure: string | null };

/** The session as the hub sees it; runners change fields and report them with `patch`. */
export type SessionState = {
  id: string;
  status: SessionStatus;
  claudeSessionId: string | null;
  model: string | null;
  permissionMode: PermissionMode;
};

export type { SessionHooks };

/** "claude exited (code 1) before its prompt appeared:\n<the last context lines>". */
export function describeEarlyExit(options: { exitCode: number; signal: string | null; before: string; lines: string[] }): string {
  const lines = options.lines.slice(-FAILURE_CONTEXT_ROWS);
  return `claude exited (code ${options.exitCode}${options.signal ? `, signal ${options.signal}` : ''}) before ${options.before}${lines.length ? `:\n${lines.join('\n')}` : ''}`;
}

export function createSessionCore(init: {
  options: RunnerOptions;
  launchKind: 'pty' | 'headless';
  /** Registration's `deskAttached`, read at every (re)connect. */
  deskAttached: () => boolean;
  /** The runner's prompt that a transcript user line confirms (its id), or null. */
  matchPrompt: (text: string) => string | null;
  /** Runs first when the session fails before claude started (PTY `-c`: open the link to say so). */
  beforeFailEarly?: () => void;
  /** Adds what only this runner knows to parsed messages (PTY: each tool call's terminal moment). */
  stampMessages?: <M extends ChatMessageInput>(messages: M[]) => M[];
  /** claude wrote that it was interrupted (Esc, a rejected tool), just now: its turn is over. */
  onInterrupted?: () => void;
}) {
  const { options } = init;
  const agent: Agent = agentFor(options.agent ?? 'claude');
  const env = agent.env({ env: options.env });
  const logFile = options.logFile ?? join(options.tetherHome, 'logs', 'runner.log');
  mkdirSync(join(logFile, '..'), { recursive: true, mode: 0o700 });
  const log = (line: string) => {
    try {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    } catch {
      // logging never breaks the session
    }
  };
  const cleanups: Array<() => void> = [];
  /** Output, keys and hooks stir it; the transcript and status polls slow down while it is quiet. */
  const pace = createPace();
  const cleanup = () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try {
        fn();
      } catch (error) {
        log(`cleanup: ${String(error)}`);
      }
    }
  };

  // ---- identity: a resumed claude session keeps its tether session (same chat on the hub)
  let plan: LaunchPlan;
  try {
    plan = agent.plan(options.userArgs);
  } catch (error) {
    throw new RunnerStartError(error instanceof Error ? error.message : String(error));
  }
  let resumed = plan.resumeId ? loadResumeState({ home: options.tetherHome, claudeSessionId: plan.resumeId }) : null;
  const state: SessionState = {
    id: resumed?.sessionId ?? options.env.TETHER_SESSION_ID ?? crypto.randomUUID(),
    status: 'starting',
    claudeSessionId: plan.resumeId,
    model: plan.model,
    permissionMode: plan.permissionMode,
  };
  const createdAt = Date.now();

  // ---- what the hub sees
  // Assigned by startLink, so `as` keeps TypeScript from narrowing them to null.
  let outbox = null as Outbox | null;
  let link = null as HubLink | null;
  const titleFrom = (from: ResumeState | null) =>
    createSessionTitle({
      initial: from?.title ? { title: from.title, source: from.titleSource ?? 'prompt' } : { title: basename(options.cwd), source: 'cwd' },
      onChange: (next) => {
        patch({ title: next });
        saveState();
      },
    });
  let title = titleFrom(resumed);
  const registration = (): SessionRegistration => ({
    id: state.id,
    machineId: options.env.TETHER_MACHINE_ID || null,
    title: title.title,
    cwd: options.cwd,
    launchKind: init.launchKind,
    agent: agent.kind,
    status: state.status,
    claudeSessionId: state.claudeSessionId,
    model: state.model,
    permissionMode: state.permissionMode,
    deskAttached: init.deskAttached(),
    createdAt,
  });
  const patch = (p: SessionPatch) => {
    link?.push('session:update', { sessionId: state.id, patch: p });
  };
  /** A command typed into claude finished (SessionCommandFinished): queued behind any patch. */
  const finishedCommand = (finished: Omit<SessionCommandFinished, 'sessionId'>) => {
    link?.push('session:command-finished', { sessionId: state.id, ...finished });
  };
  const controller = createControllerTracker({ report: (next) => patch({ controller: next }) });
  const setStatus = (next: Exclude<SessionStatus, 'ended' | 'failed'>) => {
    if (state.status === next || isFinalStatus(state.status)) return;
    state.status = next;
    patch({ status: next });
  };
  /** MCP servers asking for input (the Elicitation hook); the session waits on a person meanwhile. */
  const elicitations = createElicitations({
    sessionId: () => state.id,
    link: () => link,
    log,
    onWaiting: (waiting) => (waiting ? setStatus('waiting') : state.status === 'waiting' && setStatus('thinking')),
  });
  cleanups.push(() => elicitations.stop());
  /** A prompt's files: fetched from the hub when it is delivered (attachments/). */
  const attachments = createAttachmentInbox({ hub: options.hub, sessionId: () => state.id, log });
  cleanups.push(() => attachments.stop());
  /** Every hook payload names claude's current mode: the desk may have cycled it (Shift+Tab). */
  const followMode = (payload: Record<string, unknown>) => {
    const parsed = PermissionModeSchema.safeParse(payload.permission_mode);
    if (!parsed.success || parsed.data === state.permissionMode) return;
    state.permissionMode = parsed.data;
    patch({ permissionMode: state.permissionMode });
  };
  /** claude's effort level, from a hook payload (`effort.level`) or its footer (`● high · /effort`). */
  let effort: EffortLevel | null = null;
  const followEffort = (level: unknown) => {
    const parsed = EffortLevelSchema.safeParse(level);
    if (!parsed.success || parsed.data === effort) return;
    effort = parsed.data;
    patch({ effort });
  };

  /** The slash commands this claude takes (slash-commands/), sent again on every connect: the
   *  phone's composer lists them. Live-only: a list the hub missed is simply sent at the next connect. */
  let slashCommands: SlashCommand[] | null = null;
  const sendSlashCommands = () => {
    if (slashCommands) void link?.request('session:commands', { sessionId: state.id, commands: slashCommands });
  };
  const reportSlashCommands = (commands: SlashCommand[]) => {
    slashCommands = commands;
    if (link?.connected()) sendSlashCommands();
  };

  // ---- hub link (optional; never fatal)
  const startLink = (o: { commands: HubCommandHandlers; onConnected: () => void }) => {
    if (!options.hub || link) return;
    outbox = openOutbox({ dir: join(options.tetherHome, 'outbox'), sessionId: state.id });
    link = connectHubLink({
      hubUrl: options.hub.url,
      token: options.hub.token,
      sessionId: state.id,
      outbox,
      registration,
      onState: (s) => {
        log(`hub: ${s.kind}${'reason' in s ? ` (${s.reason})` : ''}${s.kind === 'down' && s.refused ? ': the hub refused the connection' : ''}`);
        if (s.kind === 'connected') {
          o.onConnected();
          sendSlashCommands();
        }
      },
      onProblem: (message) => log(`hub: ${message}`),
      commands: o.commands,
      // A viewer's read of the session's directory (Changes, Files): the same for every launch kind.
      queries: { 'workspace:query': createWorkspaceReader({ root: options.cwd }).answer },
    });
  };
  const stopLink = () => {
    link?.stop();
    if (outbox) {
      if (outbox.size() === 0) outbox.destroy();
      else outbox.close();
    }
  };

  /** Reported on the hub and thrown to the command, which prints it at the desk. */
  const failEarly = async (reason: string): Promise<never> => {
    init.beforeFailEarly?.();
    state.status = 'failed';
    link?.push('session:end', { sessionId: state.id, status: 'failed', exitCode: null, reason: reason.slice(0, REASON_MAX_CHARS) });
    await link?.drain(EXIT_DRAIN_MS);
    stopLink();
    cleanup();
    throw new RunnerStartError(reason);
  };

  // ---- transcript → chat
  /** Made by createApprovals (below); transcript tool results reach it. */
  let approvals: Approvals | null = null;
  const feed = createTranscriptFeed({
    agent,
    log,
    poll: pace.poll,
    append: (messages) => link?.push('message:append', { sessionId: state.id, messages }),
    matchPrompt: (text) => init.matchPrompt(text),
    ...(init.stampMessages ? { stampMessages: init.stampMessages } : {}),
    onToolResult: ({ toolUseId, rejected }) => {
      approvals?.toolResult({ toolUseId, rejected });
      // Esc at the desk while an MCP server's form waits on the phone: claude keeps the hook
      // open but records the call as rejected; that is the desk's answer.
      if (rejected) elicitations.interrupted();
    },
    onInterrupted: () => init.onInterrupted?.(),
    // `/model` typed at the desk or by the queue for the phone: the model is the one the agent says
    // it set ("Switch model?" may have kept the old one). Re-read history (a resume) says the same.
    onModel: (model) => {
      if (model === state.model) return;
      log(`model: ${model} (the agent's own /model)`);
      state.model = model;
      patch({ model });
    },
    // Set or kept, the request has ended: a phone's chip waiting on it stops (after the patch).
    onCommandFinished: (finished) => finishedCommand(finished),
    onRead: ({ lines, messages }) => {
      title.take(lines, messages);
      saveState();
    },
    onSubagentRead: () => saveState(),
  });
  cleanups.push(() => feed.stop());
  const saveState = () => {
    const transcriptPath = feed.path();
    if (!state.claudeSessionId || !transcriptPath) return;
    saveResumeState({
      home: options.tetherHome,
      claudeSessionId: state.claudeSessionId,
      state: { sessionId: state.id, transcriptPath, offset: feed.offset(), title: title.title, titleSource: title.source, subagentOffsets: feed.subagentOffsets() },
    });
  };
  /** Tails `path` (and its subagents) from the start, or from the resume state's offsets when the
   *  runner says this transcript is the one that state was saved for. */
  const followTranscript = (o: { path: string; continued: boolean }) => {
    const continued = o.continued && resumed !== null;
    feed.follow({ path: o.path, fromOffset: continued ? resumed!.offset : 0, ...(continued && resumed?.subagentOffsets ? { subagentOffsets: resumed.subagentOffsets } : {}) });
  };

  /** The agent's binary, the hook server and the hooks the agent will call, and its arguments. */
  const prepareLaunch = async (o: { approvals: Approvals; hooks: SessionHooks }): Promise<{ binary: string; plan: LaunchPlan }> => {
    let binary: string;
    try {
      binary = agent.findBinary({ env: options.env });
    } catch (error) {
      return failEarly(error instanceof Error ? error.message : String(error));
    }
    /** The agent wrote to the transcript just before this hook (a prompt, a tool result, a reply):
     *  read now rather than at the next fallback poll, and once more for lines written just after. */
    const readTranscriptSoon = () => {
      void feed.poke();
      const again = setTimeout(() => void feed.poke(), TRANSCRIPT_LATE_WRITE_MS);
      again.unref?.();
    };
    const onHook = createHookHandler({
      hooks: o.hooks,
      approvals: o.approvals,
      elicitations,
      state,
      patch,
      setStatus,
      link: () => link,
      onAny: (p) => {
        pace.stir();
        followMode(p);
        followEffort((p.effort as { level?: unknown } | undefined)?.level);
      },
      readTranscriptSoon,
      plainVerdicts: agent.plainVerdicts === true,
    });
    const hookServer = startHookServer({ onHook });
    cleanups.push(() => hookServer.stop());
    let installed: HookInstall;
    try {
      installed = agent.installHooks({ endpoint: hookServer.endpoint, permissionHook: init.launchKind === 'pty' });
    } catch (error) {
      return failEarly(`could not write the hook settings: ${String(error)}`);
    }
    cleanups.push(() => installed.remove());
    plan = { ...plan, args: installed.prepend ? [...installed.args, ...plan.args] : [...plan.args, ...installed.args] };
    // A PTY agent lists nothing on its own: its room knows what it takes (claude: its built-ins for
    // its version and what it loads from disk); headless claude reports its own answer instead.
    if (init.launchKind === 'pty' && agent.slashCommands) reportSlashCommands(agent.slashCommands({ binary, env, cwd: options.cwd, tetherHome: options.tetherHome }));
    return { binary, plan };
  };

  return {
    agent,
    env,
    log,
    pace,
    /** Released on every exit path, last registered first. */
    onCleanup: (fn: () => void) => {
      cleanups.push(fn);
    },
    /** The plan before the hook settings exist (its flags; prepareLaunch gives the final args). */
    get plan() {
      return plan;
    },
    /** The resume state this session continues, if any. */
    get resumed() {
      return resumed;
    },
    state,
    /** `-c`: SessionStart named a claude session tether has seen; this becomes its tether session. */
    adopt(known: ResumeState) {
      resumed = known;
      state.id = known.sessionId;
      title = titleFrom(known);
    },
    patch,
    finishedCommand,
    setStatus,
    followEffort,
    /** claude's mode as its footer or a control answer shows it (hooks report theirs themselves). */
    followMode: (mode: PermissionMode) => followMode({ permission_mode: mode }),
    controller,
    link: () => link,
    startLink,
    /** Hub answers and reconnects reach these as they reach approvals. */
    elicitations,
    attachments,
    /** The slash commands claude takes (headless: from its `initialize` answer). */
    reportSlashCommands,
    /** Approvals with this session's id, link and log. */
    createApprovals(o: Pick<Parameters<typeof createApprovals>[0], 'onPlanApproved'>): Approvals {
      const made = createApprovals({
        sessionId: () => state.id,
        link: () => link,
        log,
        describe: (d) => feed.describe(d),
        ...o,
      });
      cleanups.push(() => made.stop());
      approvals = made;
      return made;
    },
    failEarly,
    prepareLaunch,
    followTranscript,
    /** The transcript being tailed (null before SessionStart named one). */
    transcript: () => ({ path: feed.path(), tailing: feed.tailing() }),
    /** Outside a desk terminal (daemon, headless), these signals stop claude; the session then ends normally. */
    stopOnSignals(kill: () => void) {
      const onSignal = (signal: NodeJS.Signals) => {
        log(`got ${signal}: stopping claude`);
        kill();
      };
      for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, onSignal);
      cleanups.push(() => {
        for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.off(signal, onSignal);
      });
    },
    /** claude exited: the last transcript lines, the prompts it never took, session:end, the drain. */
    async finish(o: { exitCode: number; failure: string | null; closePrompts: () => void; beforeEnd?: () => Promise<unknown> }): Promise<RunnerResult> {
      const { exitCode, failure } = o;
      elicitations.stop();
      // Pick up the last lines claude wrote before it exited (a write may land just after its exit).
      if (feed.tailing()) {
        await feed.poke();
        await new Promise((resolve) => setTimeout(resolve, FINAL_TRANSCRIPT_READ_MS));
        await feed.poke();
      }
      o.closePrompts();
      state.status = failure ? 'failed' : 'ended';
      if (o.beforeEnd) await o.beforeEnd();
      link?.push('session:end', { sessionId: state.id, status: failure ? 'failed' : 'ended', exitCode, reason: failure ? failure.slice(0, REASON_MAX_CHARS) : null });
      const drained = (await link?.drain(EXIT_DRAIN_MS)) ?? true;
      if (!drained) log('hub did not take everything before exit; the rest stays in the outbox');
      stopLink();
      cleanup();
      return { exitCode: failure && exitCode === 0 ? 1 : exitCode, sessionId: state.id, failure };
    },
  };
}
