// runner.ts: one claude session from spawn to exit, the composition root of the runner rooms.
//
//   desk terminal ◄──► PTY (claude) ──bytes──► screen model (is the prompt ready/empty?)
//                        ▲    │                └─► hub terminal:output (while someone watches)
//     prompt queue ──────┘    └─ hooks ──► hook server ──► status, transcript path, approvals
//   transcript tail ──► parse ──► hub-link outbox ──► hub /cli ──► prompt:deliver, abort, model
//
// Invariants: "ready" means claude's input box is on screen; claude exiting before that is a
// failed session with the reason (its last screen lines), shown at the desk and on the hub, and is
// never respawned. The hub being down never stops claude. Everything started here is released on
// every exit path (hook server, settings dir, tails, link, desk terminal).
import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PermissionMode, SessionPatch, SessionRegistration, SessionStatus } from '@tether/shared';
import { findClaudeBinary } from '../claude/find-binary.ts';
import { buildLaunchArgs, type LaunchPlan } from '../claude/launch-args.ts';
import { buildClaudeEnv, claudeConfigDir } from '../claude/env.ts';
import { watchClaudeStatus, type ClaudeStatusWatch } from '../claude/status-file.ts';
import { spawnPty, type PtyProcess } from '../pty/pty.ts';
import { attachLocalTerminal, DEFAULT_SIZE, type LocalTerminal } from '../pty/local-terminal.ts';
import { createScreenModel } from '../screen/screen.ts';
import type { PromptState } from '../screen/prompt-state.ts';
import { startHookServer, type HookRequest } from '../hooks/server.ts';
import { writeHookSettings, type HookSettingsDir } from '../hooks/settings.ts';
import { createSessionRules } from '../policy/rules.ts';
import { openOutbox, type Outbox } from '../hub-link/outbox.ts';
import { connectHubLink, type HubLink } from '../hub-link/link.ts';
import { tailTranscript, TRANSCRIPT_POLL_MS, type TranscriptTail } from '../transcript/tail.ts';
import { parseTranscriptLines } from '../transcript/parse.ts';
import { subagentDirFor, tailSubagents, type SubagentTails } from '../transcript/subagents.ts';
import { createPromptQueue } from './prompt-queue.ts';
import { createApprovals } from './approvals.ts';
import { createDeskPrompt } from './desk-prompt.ts';
import { confirmPlanDialog } from './plan-dialog.ts';
import { loadResumeState, saveResumeState } from './resume-state.ts';
import { createTerminalStream, type TerminalStream } from './terminal-stream.ts';
import { runHeadlessSession } from './headless.ts';
import { createTrustDialog, TRUST_TEXT } from './trust-dialog.ts';
import { createControllerTracker, isDeskKeystroke } from './controller.ts';
import { createSessionTitle } from './session-title.ts';

/** How long a finished session waits for the hub to take what it is owed before exiting. The rest
 *  stays in the on-disk outbox. */
const EXIT_DRAIN_MS = 3_000;
/** Screen rows quoted as the reason when claude dies before its prompt appears. */
const FAILURE_CONTEXT_ROWS = 8;
/** Chat messages per message:append (the hub's cap is MAX_MESSAGES_PER_BATCH; stay under it). */
const APPEND_CHUNK = 100;
/** How long the final screen may take to reach the hub before session:end goes anyway. */
const FINAL_SNAPSHOT_MS = 1_000;
/** `--continue`: how long the hub link waits for SessionStart to say which session claude continued
 *  (it comes ~1 s after spawn). Past it the session is registered as a new one. */
const CONTINUE_IDENTITY_WAIT_MS = 15_000;
/** Unparsed bytes the screen model (its own thread) may lag behind the PTY before reading pauses
 *  (xterm throws past 50 MB queued). 8 MiB is ~80 ms of parsing here. */
const SCREEN_MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
/** Output in 16 ms that counts as a flood (~4 MB/s: far more than claude's TUI ever draws)... */
const SCREEN_CHECK_FLOOD_BYTES = 64 * 1024;
/** ...during which the screen is read for prompt state at most this often. */
const SCREEN_CHECK_FLOOD_MS = 250;
/** The typing gate's screen read is retried this often when output overtook it; output that keeps
 *  coming means the prompt is not idle. */
const GATE_READ_TRIES = 3;

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

export async function runSession(options: RunnerOptions): Promise<RunnerResult> {
  if (options.launchKind === 'headless') return runHeadlessSession(options);
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
  let sessionId = resumed?.sessionId ?? options.env.TETHER_SESSION_ID ?? crypto.randomUUID();
  // `-c`: claude picks the session to continue; SessionStart (source resume) names it, and the resume
  // state maps it to its tether session. The hub link waits for that (settleIdentity below).
  const continuing = plan.continue && !resumed && options.hub !== null;
  const createdAt = Date.now();
  let status: SessionStatus = 'starting';
  let claudeSessionId: string | null = plan.resumeId;
  let model: string | null = plan.model;
  let permissionMode: PermissionMode = plan.permissionMode;

  // ---- hub link (optional; never fatal)
  // Assigned by startHubLink (a closure), so `as` keeps TypeScript from narrowing them to null.
  let outbox = null as Outbox | null;
  let link = null as HubLink | null;
  /** A `tether attach` desk attached through the hub (the local desk, when there is one, wins). */
  let remoteDesk = false;
  const deskAttached = () => options.desk === 'attached' || remoteDesk;
  const titleFrom = (state: typeof resumed) =>
    createSessionTitle({
      initial: state?.title ? { title: state.title, source: state.titleSource ?? 'prompt' } : { title: basename(options.cwd), source: 'cwd' },
      onChange: (next) => {
        patch({ title: next });
        saveState();
      },
    });
  let title = titleFrom(resumed);
  const registration = (): SessionRegistration => ({
    id: sessionId,
    machineId: options.env.TETHER_MACHINE_ID || null,
    title: title.title,
    cwd: options.cwd,
    launchKind: 'pty',
    status,
    claudeSessionId,
    model,
    permissionMode,
    deskAttached: deskAttached(),
    createdAt,
  });
  const patch = (p: SessionPatch) => {
    link?.push('session:update', { sessionId, patch: p });
  };
  const controller = createControllerTracker({ report: (next) => patch({ controller: next }) });
  const setStatus = (next: Exclude<SessionStatus, 'ended' | 'failed'>) => {
    if (status === next || status === 'ended' || status === 'failed') return;
    status = next;
    patch({ status: next });
  };

  // Filled in once the PTY exists; hub commands that arrive earlier are queued by the prompt queue.
  let pty: PtyProcess | null = null;
  let stream = null as TerminalStream | null;
  const screen = createScreenModel({
    ...(options.desk === 'attached' && process.stdout.columns ? { cols: process.stdout.columns, rows: process.stdout.rows } : DEFAULT_SIZE),
    onError: log,
  });
  cleanups.push(() => screen.stop());
  /** The typing gate's read: the screen after every byte so far. A read that more output overtook
   *  is stale, so it is asked again; output that never pauses counts as a busy prompt. */
  const gateState = async (): Promise<PromptState> => {
    for (let i = 0; i < GATE_READ_TRIES; i++) {
      const state = await screen.state();
      if (state.offset === screen.written()) return state.promptState;
    }
    return { kind: 'busy' };
  };

  const queue = createPromptQueue({
    screen: gateState,
    // `status` merges hook events and claude's status file (see the watcher below).
    turnIdle: () => status === 'idle',
    write: (data) => pty?.write(data),
    report: ({ promptId, status: s, reason }) => link?.push('prompt:status', { sessionId, promptId, status: s, reason: reason ?? null }),
  });
  cleanups.push(() => queue.stop());
  const rules = createSessionRules();

  const startHubLink = () => {
    if (!options.hub || link) return;
    outbox = openOutbox({ dir: join(options.tetherHome, 'outbox'), sessionId });
    link = connectHubLink({
      hubUrl: options.hub.url,
      token: options.hub.token,
      sessionId,
      outbox,
      registration,
      onState: (state) => {
        log(`hub: ${state.kind}${state.kind === 'down' ? ` (${state.reason})` : ''}`);
        // A desk attached through the hub is re-announced by `tether attach` (its next resize); a
        // detach sent while this link was down is lost, so the desk must not hold the size forever.
        if (state.kind === 'connected' && remoteDesk) {
          remoteDesk = false;
          patch({ deskAttached: false });
        }
        if (state.kind === 'connected') stream?.connected();
        if (state.kind === 'connected') approvals.reconnected();
      },
      onProblem: (message) => log(`hub: ${message}`),
      commands: {
        'prompt:deliver': ({ promptId, text }) => {
          controller.set('remote');
          queue.enqueue({ promptId, text });
        },
        'session:abort': () => queue.abort(),
        'session:stop': () => pty?.kill('SIGTERM'),
        'session:set-model': ({ model: next }) =>
          queue.enqueueCommand({
            text: `/model ${next}`,
            onDone: () => {
              model = next;
              patch({ model: next });
            },
          }),
        'approval:answered': ({ requestId, answer }) => {
          controller.set('remote');
          if (!trust.answered({ requestId, answer })) approvals.answered({ requestId, answer });
        },
        'terminal:input': ({ data, desk }) => {
          // A `tether attach` desk types through the hub too; its automatic replies are not typing.
          if (desk) {
            if (isDeskKeystroke(data)) controller.set('desk');
          } else controller.set('remote');
          pty?.write(data);
        },
        'terminal:resize': ({ cols, rows }) => {
          if (deskAttached()) return; // the desk owns the size while attached
          resizePty({ cols, rows });
        },
        'terminal:desk': ({ attached, cols, rows }) => {
          if (options.desk === 'attached') return; // the local terminal owns this PTY
          remoteDesk = attached;
          patch({ deskAttached: attached });
          // The size report that follows says desk: attached, so the hub's size owner follows.
          if (attached && cols && rows) resizePty({ cols, rows });
          else stream?.sizeChanged({ cols: screen.cols(), rows: screen.rowsCount() });
          log(`desk ${attached ? `attached through the hub${cols && rows ? ` (${cols}x${rows})` : ''}` : 'detached'}`);
        },
        'terminal:viewers': ({ count }) => stream?.viewers(count),
        'terminal:snapshot-request': () => stream?.snapshotRequested(),
      },
    });
    stream = createTerminalStream({ sessionId, link, screen, ptyOffset: () => pty?.offset() ?? 0, desk: deskAttached });
  };
  cleanups.push(() => stream?.stop());
  const resizePty = (next: { cols: number; rows: number }) => {
    pty?.resize(next);
    screen.resize(next);
    stream?.sizeChanged(next);
  };
  let identitySettled = !continuing;
  let identityTimer: ReturnType<typeof setTimeout> | null = null;
  /** Opens the hub link once the session's identity is known (at once, except for `--continue`). */
  const settleIdentity = (why: string) => {
    if (identityTimer) clearTimeout(identityTimer);
    identityTimer = null;
    if (!identitySettled) log(`--continue: session ${sessionId} (${why})`);
    identitySettled = true;
    startHubLink();
  };
  cleanups.push(() => identityTimer && clearTimeout(identityTimer));
  if (!continuing) settleIdentity('known at start');
  // The desk's answer panel sits between the PTY and the desk terminal (see desk-prompt.ts).
  const deskPrompt = createDeskPrompt({ screen, write: (data) => desk?.write(data), forward: (data) => pty?.write(data) });
  cleanups.push(() => deskPrompt.stop());
  const approvals = createApprovals({
    sessionId: () => sessionId,
    link: () => link,
    rules,
    permissionMode: () => permissionMode,
    cwd: options.cwd,
    bypassAllowed: plan.bypass || options.userArgs.includes('--allow-dangerously-skip-permissions'),
    desk: options.desk === 'attached' ? deskPrompt : null,
    log,
    onPlanApproved: () => {
      const confirm = confirmPlanDialog({ screen, write: (data) => pty?.write(data) });
      cleanups.push(() => confirm.stop());
    },
  });
  cleanups.push(() => approvals.stop());
  const stopLink = () => {
    link?.stop();
    if (outbox) {
      if (outbox.size() === 0) outbox.destroy();
      else outbox.close();
    }
  };

  /** Reported on the hub and returned to the command, which prints it at the desk. */
  const failEarly = async (reason: string): Promise<never> => {
    settleIdentity('claude never started');
    status = 'failed';
    link?.push('session:end', { sessionId, status: 'failed', exitCode: null, reason: reason.slice(0, 500) });
    await link?.drain(EXIT_DRAIN_MS);
    stopLink();
    cleanup();
    throw new RunnerStartError(reason);
  };

  // ---- claude binary, hook server and settings
  let binary: string;
  try {
    binary = findClaudeBinary({ env: options.env });
  } catch (error) {
    return failEarly(error instanceof Error ? error.message : String(error));
  }

  // ---- transcript → chat
  let tail: TranscriptTail | null = null;
  let subagents: SubagentTails | null = null;
  let transcriptPath: string | null = null;
  let transcriptOffset = 0;
  const saveState = () => {
    if (!claudeSessionId || !transcriptPath) return;
    saveResumeState({
      home: options.tetherHome,
      claudeSessionId,
      state: { sessionId, transcriptPath, offset: transcriptOffset, title: title.title, titleSource: title.source, subagentOffsets: subagents?.offsets() ?? {} },
    });
  };
  const appendMessages = (messages: ReturnType<typeof parseTranscriptLines>) => {
    for (let i = 0; i < messages.length; i += APPEND_CHUNK) {
      link?.push('message:append', { sessionId, messages: messages.slice(i, i + APPEND_CHUNK) });
    }
  };
  const onTranscriptLines = (lines: string[], endOffset: number) => {
    const messages = parseTranscriptLines(lines, {
      matchPrompt: (text) => queue.matchPrompt(text),
      onBadLine: (reason) => log(`transcript: ${reason}`),
    });
    appendMessages(messages);
    transcriptOffset = endOffset;
    title.take(lines, messages);
    saveState();
  };
  /** Subagent (Agent/Task tool) transcripts: sidechain lines with their agentId, same chat. */
  const onSubagentLines = (lines: string[]) => {
    appendMessages(parseTranscriptLines(lines, { onBadLine: (reason) => log(`subagent transcript: ${reason}`) }));
    saveState();
  };
  const followTranscript = (path: string, source: string) => {
    let fromOffset = 0;
    const continued = resumed && resumed.transcriptPath === path && source === 'resume';
    if (continued) fromOffset = resumed!.offset;
    transcriptPath = path;
    transcriptOffset = fromOffset;
    if (!tail) {
      tail = tailTranscript({ path, fromOffset, onLines: onTranscriptLines, onError: (error) => log(`transcript: ${String(error)}`) });
    } else {
      tail.switchTo(path, fromOffset);
    }
    subagents?.stop();
    subagents = tailSubagents({
      dir: subagentDirFor(path),
      ...(continued && resumed?.subagentOffsets ? { fromOffsets: resumed.subagentOffsets } : {}),
      onLines: onSubagentLines,
      onError: (error) => log(`subagent transcript: ${String(error)}`),
    });
  };
  cleanups.push(() => tail?.stop());
  cleanups.push(() => subagents?.stop());

  // ---- hooks
  let statusWatch: ClaudeStatusWatch | null = null;
  const onHook = async (request: HookRequest): Promise<Record<string, unknown>> => {
    const p = request.payload;
    switch (request.event) {
      case 'session-start': {
        if (!identitySettled) {
          const known = p.source === 'resume' && typeof p.session_id === 'string' ? loadResumeState({ home: options.tetherHome, claudeSessionId: p.session_id }) : null;
          if (known) {
            resumed = known;
            sessionId = known.sessionId;
            title = titleFrom(known);
          }
          settleIdentity(known ? `continues claude session ${String(p.session_id)}` : 'a claude session tether has not seen');
        }
        if (typeof p.session_id === 'string' && p.session_id !== claudeSessionId) {
          claudeSessionId = p.session_id;
          patch({ claudeSessionId });
        }
        if (typeof p.model === 'string' && !model) {
          model = p.model.replace(/\[[^\]]*\]$/, '');
          patch({ model });
        }
        if (typeof p.transcript_path === 'string') followTranscript(p.transcript_path, String(p.source ?? 'startup'));
        return {};
      }
      case 'user-prompt-submit':
        setStatus('thinking');
        return {};
      case 'stop':
        setStatus('idle');
        queue.turnEnded();
        return {};
      case 'notification':
        if (p.notification_type === 'permission_prompt') setStatus('waiting');
        return {};
      case 'pre-tool-use':
        if (typeof p.permission_mode === 'string' && p.permission_mode !== permissionMode) {
          permissionMode = p.permission_mode as PermissionMode;
          patch({ permissionMode });
        }
        return approvals.decide({ payload: p, signal: request.signal });
      case 'post-tool-use':
        if (status === 'waiting') setStatus('thinking');
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
    settings = writeHookSettings({ endpoint: hookServer.endpoint });
  } catch (error) {
    return failEarly(`could not write the hook settings: ${String(error)}`);
  }
  cleanups.push(() => settings.remove());
  plan = buildLaunchArgs({ userArgs: options.userArgs, settingsPath: settings.settingsPath });
  if (plan.bypass) log('permission bypass requested by the user: tool calls are not sent for approval');

  // ---- the desk and the PTY
  let desk: LocalTerminal | null = null;
  let ready = false;
  let readyAt: number | null = null;
  const startedAt = Date.now();
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  const trust = createTrustDialog({ sessionId: () => sessionId, cwd: options.cwd, link: () => link, write: (data) => pty?.write(data), log });
  cleanups.push(() => trust.stop());
  /** Output since the last screen check, and when that check ran: see checkScreen. */
  let bytesSinceCheck = 0;
  let lastCheckAt = 0;
  const checkScreen = () => {
    checkTimer = null;
    // A check reads every cell of the screen. While output floods (more than SCREEN_CHECK_FLOOD_BYTES
    // in the last 16 ms) the prompt cannot be idle, so check at most every SCREEN_CHECK_FLOOD_MS
    // meanwhile; the check right after output pauses (what the typing gate waits for) still runs
    // within 16 ms of the last byte.
    const flooding = bytesSinceCheck > SCREEN_CHECK_FLOOD_BYTES;
    bytesSinceCheck = 0;
    if (flooding && ready && performance.now() - lastCheckAt < SCREEN_CHECK_FLOOD_MS) {
      checkTimer = setTimeout(checkScreen, 16);
      return;
    }
    lastCheckAt = performance.now();
    void screen.state().then(({ text, promptState }) => {
      // A trust dialog comes before SessionStart: the hub must hear it, so the identity waits no more.
      if (!ready && !identitySettled && text.includes(TRUST_TEXT)) settleIdentity('trust dialog');
      if (!ready) trust.check(text);
      if (!ready && promptState.kind !== 'starting') {
        ready = true;
        readyAt = Date.now();
        log(`ready in ${readyAt - startedAt} ms`);
        if (status === 'starting') setStatus('idle');
      }
      queue.poke();
    });
  };
  const size = options.desk === 'attached' ? null : DEFAULT_SIZE;
  if (options.desk === 'attached') {
    desk = attachLocalTerminal({
      onInput: (data) => {
        if (isDeskKeystroke(data)) controller.set('desk');
        deskPrompt.input(data);
      },
      onResize: (next) => {
        resizePty(next);
        deskPrompt.resized();
      },
      onSignal: (signal) => {
        log(`got ${signal}: stopping claude`);
        pty?.kill(signal === 'SIGHUP' ? 'SIGHUP' : 'SIGTERM');
      },
    });
    cleanups.push(() => desk?.restore());
  } else {
    const onSignal = (signal: NodeJS.Signals) => {
      log(`got ${signal}: stopping claude`);
      pty?.kill('SIGTERM');
    };
    for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.on(signal, onSignal);
    cleanups.push(() => {
      for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) process.off(signal, onSignal);
    });
  }
  const initial = desk?.interactive ? desk.size() : (size ?? DEFAULT_SIZE);
  screen.resize(initial);
  try {
    pty = spawnPty({
      file: binary,
      args: plan.args,
      cwd: options.cwd,
      env,
      cols: initial.cols,
      rows: initial.rows,
      // The screen model must see every byte (snapshots, prompt state): when it is far behind, stop
      // reading until it caught up; the writer then blocks on the kernel's PTY buffer.
      hold: () => (screen.backlog() > SCREEN_MAX_BACKLOG_BYTES ? screen.settled() : null),
    });
  } catch (error) {
    return failEarly(`could not start ${binary}: ${error instanceof Error ? error.message : String(error)}`);
  }
  log(`session ${sessionId}: spawned ${binary} (pid ${pty.pid}) ${JSON.stringify(plan.args)}`);
  if (!identitySettled) identityTimer = setTimeout(() => settleIdentity('no SessionStart in time'), CONTINUE_IDENTITY_WAIT_MS);
  // Bytes as read: the screen model and the hub take them as they are; only the desk gets text.
  const deskDecoder = new TextDecoder();
  pty.onData(({ data, offset }) => {
    screen.write(data);
    if (desk) deskPrompt.output(deskDecoder.decode(data, { stream: true }));
    stream?.data({ data, offset });
    bytesSinceCheck += data.length;
    if (!checkTimer) checkTimer = setTimeout(checkScreen, 16);
  });
  statusWatch = watchClaudeStatus({
    configDir: claudeConfigDir(env),
    pid: pty.pid,
    claudeSessionId: () => claudeSessionId,
    onChange: (fileStatus) => {
      if (fileStatus === 'idle' && status !== 'starting') {
        // Esc ends a turn without a Stop hook; claude's own status file still says idle.
        setStatus('idle');
        queue.turnEnded();
      } else if (fileStatus === 'busy' && status === 'idle') {
        setStatus('thinking');
      } else if (fileStatus === 'waiting') {
        setStatus('waiting');
      }
    },
  });
  cleanups.push(() => statusWatch?.stop());

  const exit = await pty.exited;
  settleIdentity('claude exited');
  if (checkTimer) clearTimeout(checkTimer);
  const finalScreen = await screen.state();
  let failure: string | null = null;
  if (!ready) {
    const lines = finalScreen.text
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== '')
      .slice(-FAILURE_CONTEXT_ROWS);
    failure = `claude exited (code ${exit.exitCode}${exit.signal ? `, signal ${exit.signal}` : ''}) before its prompt appeared${lines.length ? `:\n${lines.join('\n')}` : ''}`;
  }
  // Let the tailer pick up the last lines claude wrote before it exited.
  if (tail) await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS * 2));
  queue.close('the session ended');
  status = failure ? 'failed' : 'ended';
  await stream?.final(FINAL_SNAPSHOT_MS);
  link?.push('session:end', {
    sessionId,
    status: failure ? 'failed' : 'ended',
    exitCode: exit.exitCode,
    reason: failure ? failure.slice(0, 500) : null,
  });
  const drained = (await link?.drain(EXIT_DRAIN_MS)) ?? true;
  if (!drained) log('hub did not take everything before exit; the rest stays in the outbox');
  stopLink();
  cleanup();
  log(`session ${sessionId}: claude exited with ${exit.exitCode}${readyAt ? ` (ready after ${readyAt - startedAt} ms)` : ''}`);
  return { exitCode: failure && exit.exitCode === 0 ? 1 : exit.exitCode, sessionId, failure };
}
