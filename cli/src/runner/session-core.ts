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
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { EffortLevelSchema, isFinalStatus, notificationNeedsPerson, PermissionModeSchema, type ChatMessageInput, type EffortLevel, type PermissionMode, type SessionPatch, type SessionRegistration, type SessionStatus } from '@tether/shared';
import { findClaudeBinary } from '../claude/find-binary.ts';
import { buildLaunchArgs, type LaunchPlan } from '../claude/launch-args.ts';
import { buildClaudeEnv } from '../claude/env.ts';
import { startHookServer, type HookRequest } from '../hooks/server.ts';
import { writeHookSettings, type HookSettingsDir } from '../hooks/settings.ts';
import { openOutbox, type Outbox } from '../hub-link/outbox.ts';
import { connectHubLink, type HubCommandHandlers, type HubLink } from '../hub-link/link.ts';
import { tailTranscript, type TranscriptTail } from '../transcript/tail.ts';
import { createPace } from '../pace/pace.ts';
import { isRejectedToolResult, parseTranscriptLines } from '../transcript/parse.ts';
import { subagentDirFor, tailSubagents, type SubagentTails } from '../transcript/subagents.ts';
import { createLocalCommandReader, modelSetBy } from '../transcript/local-commands.ts';
import { createApprovals, type Approvals, type Verdict } from './approvals.ts';
import { createControllerTracker } from './controller.ts';
import { createElicitations } from './elicitation.ts';
import { loadResumeState, saveResumeState, type ResumeState } from './resume-state.ts';
import { createSessionTitle } from './session-title.ts';
import { createAttachmentInbox } from '../attachments/attachments.ts';
import { listSlashCommands } from '../slash-commands/slash-commands.ts';
import { cachedClaudeVersion } from '../claude/version.ts';
import { claudeConfigDir } from '../claude/env.ts';
import type { SlashCommand } from '@tether/shared';

/** A transcript interrupt read this soon after claude wrote it ends the turn now running. */
const LIVE_INTERRUPT_MS = 10_000;
/** How long a finished session waits for the hub to take what it is owed before exiting. The rest
 *  stays in the on-disk outbox. */
const EXIT_DRAIN_MS = 3_000;
/** Chat messages per message:append (the hub's cap is MAX_MESSAGES_PER_BATCH; stay under it). */
const APPEND_CHUNK = 100;
/** Lines (screen rows, stderr lines) quoted as the reason when claude dies before it was ready. */
const FAILURE_CONTEXT_ROWS = 8;
/** A failure reason is a label on the hub (MAX_LABEL_CHARS in shared/src/limits.ts); longer is refused. */
const REASON_MAX_CHARS = 500;
/** A hook can run a moment before claude appends the line it reports; the transcript is read again
 *  this long after each hook. */
const TRANSCRIPT_LATE_WRITE_MS = 40;
/** Tool inputs remembered from the transcript for describing hub requests. */
const MODEL_INPUTS_KEPT = 64;
/** How long a plan request waits for claude to write the plan's tool_use line to the transcript. */
const PLAN_LOOKUP_MS = 1_000;
/** A plan file larger than this is cut for the phone (the hub caps a request's size). */
const PLAN_MAX_CHARS = 100_000;
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
  /** `headless`: `claude -p` with stream-json, no terminal (headless.ts). Default `pty`. */
  launchKind?: 'pty' | 'headless';
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

/** What differs per runner in claude's hook events; the rest is handled here. */
export type SessionHooks = {
  /** SessionStart, before its claude session id, model and transcript path are taken. */
  onSessionStart?: (payload: Record<string, unknown>) => void;
  /** SessionStart named the transcript (`source`: startup, resume, clear, compact). */
  onTranscript: (path: string, source: string) => void;
  onStop?: () => void;
  /** PreToolUse (`start`) and PostToolUse (`end`) of any tool call. */
  onToolEvent?: (event: { phase: 'start' | 'end'; payload: Record<string, unknown> }) => void;
};

/** The PermissionRequest hook's answer for a verdict. */
function permissionDecision(verdict: Verdict): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: verdict } };
}

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
  const env = buildClaudeEnv({ env: options.env });
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
    plan = buildLaunchArgs({ userArgs: options.userArgs, settingsPath: '' });
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
  let tail: TranscriptTail | null = null;
  let subagents: SubagentTails | null = null;
  let transcriptPath: string | null = null;
  let transcriptOffset = 0;
  const saveState = () => {
    if (!state.claudeSessionId || !transcriptPath) return;
    saveResumeState({
      home: options.tetherHome,
      claudeSessionId: state.claudeSessionId,
      state: { sessionId: state.id, transcriptPath, offset: transcriptOffset, title: title.title, titleSource: title.source, subagentOffsets: subagents?.offsets() ?? {} },
    });
  };
  const appendMessages = (parsed: ReturnType<typeof parseTranscriptLines>) => {
    const messages = init.stampMessages ? init.stampMessages(parsed) : parsed;
    for (let i = 0; i < messages.length; i += APPEND_CHUNK) {
      link?.push('message:append', { sessionId: state.id, messages: messages.slice(i, i + APPEND_CHUNK) });
    }
  };
  /** Made by createApprovals (below); transcript tool results reach it. */
  let approvals: Approvals | null = null;
  /** Tool inputs as the model sent them (the transcript's tool_use blocks), by tool_use id, and the
   *  plan file claude named last: what a hub request shows when claude's hook payload leaves it out. */
  const modelInputs = new Map<string, unknown>();
  let planFile: string | null = null;
  const localCommands = createLocalCommandReader();
  const onTranscriptLines = (lines: string[], endOffset: number) => {
    const messages = parseTranscriptLines(lines, {
      matchPrompt: (text) => init.matchPrompt(text),
      onBadLine: (reason) => log(`transcript: ${reason}`),
    });
    appendMessages(messages);
    // An interrupt ends the turn without a Stop hook; lines read long after they were written (a
    // resume re-reading history) are not this turn's.
    if (messages.some((m) => Date.now() - m.createdAt <= LIVE_INTERRUPT_MS && m.content.some((b) => b.type === 'interrupt'))) init.onInterrupted?.();
    for (const line of lines) {
      if (!line.includes('"planFilePath"')) continue;
      try {
        const path = (JSON.parse(line) as { attachment?: { planFilePath?: unknown } }).attachment?.planFilePath;
        if (typeof path === 'string') planFile = path;
      } catch {
        // a malformed line is reported by the parser above
      }
    }
    for (const message of messages) {
      for (const block of message.content) {
        if (block.type === 'tool_use') {
          modelInputs.set(block.id, block.input);
          if (modelInputs.size > MODEL_INPUTS_KEPT) modelInputs.delete(modelInputs.keys().next().value!);
        }
        if (block.type === 'tool_result') {
          const rejected = isRejectedToolResult(block);
          approvals?.toolResult({ toolUseId: block.toolUseId, rejected });
          // Esc at the desk while an MCP server's form waits on the phone: claude keeps the hook
          // open but records the call as rejected; that is the desk's answer.
          if (rejected) elicitations.interrupted();
        }
      }
    }
    // `/model` typed at the desk or by the queue for the phone: the model is the one claude says it
    // set ("Switch model?" may have kept the old one). Re-read history (a resume) says the same.
    for (const run of localCommands.take(lines)) {
      const model = modelSetBy(run);
      if (model && model !== state.model) {
        log(`model: ${model} (claude's /model)`);
        state.model = model;
        patch({ model });
      }
    }
    transcriptOffset = endOffset;
    title.take(lines, messages);
    saveState();
  };
  /** Subagent (Agent/Task tool) transcripts: sidechain lines with their agentId, same chat. */
  const onSubagentLines = (lines: string[]) => {
    appendMessages(parseTranscriptLines(lines, { onBadLine: (reason) => log(`subagent transcript: ${reason}`) }));
    saveState();
  };
  /** ExitPlanMode without a plan (claude 2.1.330 keeps it in a plan file): the plan as the model
   *  sent it, or the plan file's text, so the phone can read what it approves. */
  const describeForPhone = async (o: { toolName: string; toolInput: Record<string, unknown>; toolUseId: string | null }): Promise<Record<string, unknown>> => {
    if (o.toolName !== 'ExitPlanMode' || typeof o.toolInput.plan === 'string') return o.toolInput;
    // claude writes the tool_use line a moment after it asks: wait for it, briefly.
    const deadline = Date.now() + PLAN_LOOKUP_MS;
    while (o.toolUseId && !modelInputs.has(o.toolUseId) && Date.now() < deadline) {
      await tail?.poke();
      if (!modelInputs.has(o.toolUseId)) await new Promise((resolve) => setTimeout(resolve, 40));
    }
    const sent = o.toolUseId ? modelInputs.get(o.toolUseId) : undefined;
    if (sent && typeof sent === 'object' && typeof (sent as { plan?: unknown }).plan === 'string') return { ...o.toolInput, plan: (sent as { plan: string }).plan };
    if (!planFile) return o.toolInput;
    try {
      return { ...o.toolInput, plan: readFileSync(planFile, 'utf8').slice(0, PLAN_MAX_CHARS), planFilePath: planFile };
    } catch {
      return o.toolInput;
    }
  };
  /** Tails `path` (and its subagents) from the start, or from the resume state's offsets when the
   *  runner says this transcript is the one that state was saved for. */
  const followTranscript = (o: { path: string; continued: boolean }) => {
    const { path } = o;
    const continued = o.continued && resumed !== null;
    const fromOffset = continued ? resumed!.offset : 0;
    transcriptPath = path;
    transcriptOffset = fromOffset;
    if (!tail) {
      tail = tailTranscript({ path, fromOffset, onLines: onTranscriptLines, onError: (error) => log(`transcript: ${String(error)}`), poll: pace.poll });
    } else {
      tail.switchTo(path, fromOffset);
    }
    subagents?.stop();
    subagents = tailSubagents({
      dir: subagentDirFor(path),
      ...(continued && resumed?.subagentOffsets ? { fromOffsets: resumed.subagentOffsets } : {}),
      onLines: onSubagentLines,
      onError: (error) => log(`subagent transcript: ${String(error)}`),
      poll: pace.poll,
    });
  };

  /** The claude binary, the hook server and its settings file, and the arguments naming it. */
  const prepareLaunch = async (o: { approvals: Approvals; hooks: SessionHooks }): Promise<{ binary: string; plan: LaunchPlan }> => {
    let binary: string;
    try {
      binary = findClaudeBinary({ env: options.env });
    } catch (error) {
      return failEarly(error instanceof Error ? error.message : String(error));
    }
    cleanups.push(() => tail?.stop());
    cleanups.push(() => subagents?.stop());
    /** claude wrote to the transcript just before this hook (a prompt, a tool result, a reply):
     *  read now rather than at the next fallback poll, and once more for lines written just after. */
    const readTranscriptSoon = () => {
      void tail?.poke();
      const again = setTimeout(() => void tail?.poke(), TRANSCRIPT_LATE_WRITE_MS);
      again.unref?.();
    };
    const onHook = async (request: HookRequest): Promise<Record<string, unknown>> => {
      pace.stir();
      const p = request.payload;
      followMode(p);
      followEffort((p.effort as { level?: unknown } | undefined)?.level);
      switch (request.event) {
        case 'session-start': {
          o.hooks.onSessionStart?.(p);
          if (typeof p.session_id === 'string' && p.session_id !== state.claudeSessionId) {
            state.claudeSessionId = p.session_id;
            patch({ claudeSessionId: state.claudeSessionId });
          }
          if (typeof p.model === 'string' && !state.model) {
            state.model = p.model.replace(/\[[^\]]*\]$/, '');
            patch({ model: state.model });
          }
          if (typeof p.transcript_path === 'string') o.hooks.onTranscript(p.transcript_path, String(p.source ?? 'startup'));
          return {};
        }
        case 'user-prompt-submit':
          setStatus('thinking');
          readTranscriptSoon();
          return {};
        case 'stop':
          readTranscriptSoon();
          o.hooks.onStop?.();
          return {};
        case 'notification': {
          // Only "a person is needed" changes anything (an idle_prompt is the turn's end, known already).
          const type = typeof p.notification_type === 'string' ? p.notification_type.slice(0, 100) : '';
          if (!type || !notificationNeedsPerson(type)) return {};
          setStatus('waiting');
          const message = typeof p.message === 'string' ? p.message.slice(0, 1000) : '';
          // Best effort, not the outbox: a late "needs you" after a reconnect would be stale.
          void link?.request('session:attention', { sessionId: state.id, notificationType: type, message });
          return {};
        }
        case 'elicitation':
          return elicitations.ask({ payload: p, signal: request.signal });
        case 'pre-tool-use':
          readTranscriptSoon(); // the assistant's text and tool_use lines come just before
          o.approvals.toolStarted(p);
          o.hooks.onToolEvent?.({ phase: 'start', payload: p });
          return {};
        case 'permission-request': {
          const toolName = typeof p.tool_name === 'string' ? p.tool_name : '';
          const toolInput = p.tool_input && typeof p.tool_input === 'object' && !Array.isArray(p.tool_input) ? (p.tool_input as Record<string, unknown>) : {};
          // Waiting on a person now (claude's Notification hook says so only ~6 s later).
          setStatus('waiting');
          const verdict = await o.approvals.ask({ toolName, toolInput, signal: request.signal });
          if (state.status === 'waiting') setStatus('thinking');
          // null: claude's own dialog (already at the desk) decides; nothing is allowed silently.
          return verdict ? permissionDecision(verdict) : {};
        }
        case 'post-tool-use':
          if (state.status === 'waiting') setStatus('thinking');
          if (typeof p.tool_use_id === 'string') o.approvals.toolResult({ toolUseId: p.tool_use_id, rejected: false });
          o.hooks.onToolEvent?.({ phase: 'end', payload: p });
          readTranscriptSoon();
          return {};
        default: {
          const never: never = request.event;
          return never;
        }
      }
    };
    const hookServer = startHookServer({ onHook });
    cleanups.push(() => hookServer.stop());
    let settings: HookSettingsDir;
    try {
      settings = writeHookSettings({ endpoint: hookServer.endpoint, permissionHook: init.launchKind === 'pty' });
    } catch (error) {
      return failEarly(`could not write the hook settings: ${String(error)}`);
    }
    cleanups.push(() => settings.remove());
    plan = buildLaunchArgs({ userArgs: options.userArgs, settingsPath: settings.settingsPath });
    // A PTY claude lists nothing on its own: its built-ins for its version and what it loads from
    // disk (headless.ts reports claude's own answer to `initialize` instead).
    if (init.launchKind === 'pty') {
      const version = cachedClaudeVersion({ bin: binary, cacheFile: join(options.tetherHome, 'claude-version.json') });
      reportSlashCommands(listSlashCommands({ version, configDir: claudeConfigDir(env), cwd: options.cwd }));
    }
    return { binary, plan };
  };

  return {
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
        describe: describeForPhone,
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
    transcript: () => ({ path: transcriptPath, tailing: tail !== null }),
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
      if (tail) {
        await tail.poke();
        await new Promise((resolve) => setTimeout(resolve, FINAL_TRANSCRIPT_READ_MS));
        await tail.poke();
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
