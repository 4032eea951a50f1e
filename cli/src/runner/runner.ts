// runner.ts: one claude session in a PTY from spawn to exit, the composition root of the runner rooms.
//
//   desk terminal ◄──► PTY (claude) ──bytes──► screen model (is the prompt ready/empty?)
//                        ▲    │                └─► hub terminal:output (while someone watches)
//     prompt queue ──────┘    └─ hooks ──► session-core: status, identity, transcript → chat, approvals
//   hub /cli ──► prompt:deliver, abort, model, terminal input/resize/desk, approval answers
//
// What both launch kinds share (log, identity and resume state, hub link and outbox, hooks,
// transcript → chat, session:end and the drain) is session-core.ts; this file holds what only a PTY
// has: the screen model and typing gate, the prompt queue, the desk (local or `tether attach`), the
// dialog relay (cli/src/dialogs/) and `-c` (the link waits until SessionStart says which session claude continued).
// `launchKind: headless` is headless.ts.
//
// Invariants: "ready" means claude's input box is on screen; claude exiting before that is a
// failed session with the reason (its last screen lines), shown at the desk and on the hub, and is
// never respawned. The hub being down never stops claude. The final screen reaches the hub before
// session:end. Everything started here is released on every exit path (core.onCleanup: screen,
// queue, terminal stream, desk terminal, hook server, settings dir, tails, link).
import { existsSync } from 'node:fs';
import { spawnPty, type PtyProcess } from '../pty/pty.ts';
import { attachLocalTerminal, DEFAULT_SIZE, type LocalTerminal } from '../pty/local-terminal.ts';
import { createScreenModel } from '../screen/screen.ts';
import type { PromptState } from '../screen/prompt-state.ts';
import type { PermissionMode } from '@tether/shared';
import { agentFor } from '../agents/index.ts';
import { createPromptQueue } from './prompt-queue.ts';
import { loadResumeState } from './resume-state.ts';
import { createTerminalStream, type TerminalStream } from './terminal-stream.ts';
import { createToolMoments } from './tool-moments.ts';
import { createDialogRelay } from '../dialogs/relay.ts';
import { isDeskKeystroke } from './controller.ts';
import { createSessionCore, describeEarlyExit, RunnerStartError, type RunnerOptions, type RunnerResult } from './session-core.ts';

export { RunnerStartError, type RunnerOptions, type RunnerResult } from './session-core.ts';

/** How long the final screen may take to reach the hub before session:end goes anyway. */
const FINAL_SNAPSHOT_MS = 1_000;
/** `--continue`: how long the hub link waits for SessionStart to say which session claude continued
 *  (it comes ~1 s after spawn). Past it the session is registered as a new one. */
const CONTINUE_IDENTITY_WAIT_MS = 15_000;
/** A dialog that comes up this soon after a key at the desk was opened by someone sitting there. */
const DIALOG_DESK_ACTIVE_MS = 3_000;
/** Unparsed bytes the screen model may lag behind the PTY before reading pauses (xterm throws past
 *  50 MB queued). 8 MiB is ~80 ms of parsing here. */
const SCREEN_MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
/** Output in 16 ms that counts as a flood (~4 MB/s: far more than claude's TUI ever draws)... */
const SCREEN_CHECK_FLOOD_BYTES = 64 * 1024;
/** ...during which the screen is read for prompt state at most this often. */
const SCREEN_CHECK_FLOOD_MS = 250;
/** The typing gate's screen read is retried this often when output overtook it; output that keeps
 *  coming means the prompt is not idle. */
const GATE_READ_TRIES = 3;

export async function runSession(options: RunnerOptions): Promise<RunnerResult> {
  const agent = agentFor(options.agent ?? 'claude');
  if (options.launchKind === 'headless') {
    if (!agent.runHeadless) throw new RunnerStartError(`${agent.name} has no headless mode in tether yet; start it with a terminal (PTY)`);
    return agent.runHeadless(options);
  }
  /** A `tether attach` desk attached through the hub (the local desk, when there is one, wins). */
  let remoteDesk = false;
  const deskAttached = () => options.desk === 'attached' || remoteDesk;
  const core = createSessionCore({
    options,
    launchKind: 'pty',
    deskAttached,
    matchPrompt: (text) => queue.matchPrompt(text),
    beforeFailEarly: () => settleIdentity('claude never started'),
    stampMessages: (messages) => moments.stamp(messages),
    // Esc ends a turn with no Stop hook; claude's status file says so too, but only when a poll
    // catches it (a floor CI run stayed 'thinking' after an abort). The transcript always does.
    onInterrupted: () => {
      if (state.status !== 'thinking') return;
      log('turn interrupted (transcript): idle');
      setStatus('idle');
      queue.turnEnded();
    },
  });
  const { env, log, state, patch, setStatus, controller } = core;
  // `-c`: claude picks the session to continue; SessionStart (source resume) names it, and the resume
  // state maps it to its tether session. The hub link waits for that (settleIdentity below).
  const continuing = core.plan.continue && !core.resumed && options.hub !== null;

  // Filled in once the PTY exists; hub commands that arrive earlier are queued by the prompt queue.
  let pty: PtyProcess | null = null;
  let stream = null as TerminalStream | null;
  /** The phone's End / `tether stop`: claude's own Ctrl-C exit (end-claude.ts). */
  let ender: { end(): void } | null = null;
  /** When a person last pressed a key at the desk (the local terminal or a `tether attach` desk). */
  let lastDeskKeyAt = 0;
  /** Bytes from a desk (ours or `tether attach`): a keystroke, not a terminal's automatic reply,
   *  puts the desk in control and marks someone as there. */
  /** Set once approvals exist (a desk attached through the hub may type before). */
  let handToDesk = (): boolean => false;
  const deskTyped = (data: string) => {
    if (isDeskKeystroke(data)) {
      controller.set('desk');
      lastDeskKeyAt = Date.now();
      // Nothing to answer at the desk while such an agent's hook waits: the key brings up its dialog
      // (and is not passed on: it was meant for a dialog that was not there yet).
      if (agent.hookHidesDialog && handToDesk()) {
        log("a key at the desk while the phone was asked: the agent's own dialog asks there now");
        return;
      }
    }
    pty?.write(data);
  };
  const screen = createScreenModel({ ...(options.desk === 'attached' && process.stdout.columns ? { cols: process.stdout.columns, rows: process.stdout.rows } : DEFAULT_SIZE), readPrompt: agent.screen.readPrompt });
  core.onCleanup(() => screen.stop());
  /** This PTY's id: offsets restart at 0 in every runner, also for a resumed session. */
  const run = crypto.randomUUID();
  // Every byte reaches the screen model as it is read, so its count is the PTY offset.
  const moments = createToolMoments({ run, offset: () => screen.written(), mark: (shows) => void screen.mark(shows ? { shows } : {}) });
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
    turnIdle: () => state.status === 'idle',
    write: (data) => pty?.write(data),
    report: ({ promptId, status: s, reason }) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status: s, reason: reason ?? null }),
  });
  core.onCleanup(() => queue.stop());

  const startHubLink = () => {
    core.startLink({
      onConnected: () => {
        // A desk attached through the hub is re-announced by `tether attach` (its next resize); a
        // detach sent while this link was down is lost, so the desk must not hold the size forever.
        if (remoteDesk) {
          remoteDesk = false;
          patch({ deskAttached: false });
        }
        stream?.connected();
        approvals.reconnected();
        dialogs.reconnected();
        core.elicitations.reconnected();
      },
      commands: {
        'prompt:deliver': (delivery) => {
          controller.set('remote');
          // With files: written under the session's temp dir first, then typed as `@path … text`.
          core.attachments.forPty(delivery, {
            ready: (text) => queue.enqueue({ promptId: delivery.promptId, text }),
            failed: (reason) => core.link()?.push('prompt:status', { sessionId: state.id, promptId: delivery.promptId, status: 'dropped', reason }),
          });
        },
        'session:abort': () => queue.abort(),
        'session:stop': () => {
          // Nothing more is typed once a person asked to end: undelivered prompts go back now.
          queue.close('the session was ended');
          queue.stop();
          ender?.end();
        },
        // The model changes when the transcript shows claude's /model output (session-core): a
        // "Switch model?" answered "No" keeps the old one. Before the first prompt there may be no
        // transcript to show it (2.1.197 writes none yet); then no cache is warm, claude asks
        // nothing, and the command done is the model set.
        'session:set-model': ({ model: next }) => {
          if (!agent.modelCommand) return log(`model change to ${next} refused: ${agent.name} has no model command here`);
          queue.enqueueCommand({
            text: agent.modelCommand(next),
            onDone: () => {
              const { path } = core.transcript();
              if (path && existsSync(path)) return;
              state.model = next;
              patch({ model: next });
              core.finishedCommand({ command: '/model', args: next, outcome: 'applied' });
            },
          });
        },
        'session:set-mode': ({ mode }) => void setMode(mode),
        // claude's own `/effort`, typed at an idle prompt like `/model`; the footer then shows it.
        'session:set-effort': ({ level }) => {
          if (agent.effortCommand) queue.enqueueCommand({ text: agent.effortCommand(level) });
        },
        'approval:answered': ({ requestId, answer }) => {
          controller.set('remote');
          if (!dialogs.answered({ requestId, answer }) && !core.elicitations.answered({ requestId, answer })) approvals.answered({ requestId, answer });
        },
        'terminal:input': ({ data, desk }) => {
          // A `tether attach` desk types through the hub too.
          if (desk) return deskTyped(data);
          controller.set('remote');
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
    const link = core.link();
    if (link && !stream) stream = createTerminalStream({ sessionId: state.id, run, link, screen, ptyOffset: () => pty?.offset() ?? 0, desk: deskAttached });
  };
  core.onCleanup(() => stream?.stop());
  /** The phone asked for another permission mode: Shift+Tab, as at the desk, until the footer shows
   *  it. Bypass only when the user started the session allowing it. One switch at a time. */
  let switchingMode = false;
  const bypassAllowed = core.plan.bypass || options.userArgs.includes('--allow-dangerously-skip-permissions');
  const setMode = async (mode: PermissionMode) => {
    if (mode === 'bypassPermissions' && !bypassAllowed) {
      log('mode switch to bypassPermissions refused: the session was not started allowing it');
      return;
    }
    if (switchingMode || !pty) return;
    const modes = agent.modes;
    if (!modes) return log(`mode switch to ${mode} refused: ${agent.name}'s modes are not switched from the phone`);
    switchingMode = true;
    try {
      const result = await modes.switchTo({ target: mode, screen, write: (data) => pty?.write(data) });
      log(result.ok ? `permission mode switched to ${mode}` : `permission mode not switched to ${mode}: ${result.reason}`);
      // The footer read during the switch was held back; report where it ended.
      const now = await modes.current(screen);
      if (now) core.followMode(now);
    } finally {
      switchingMode = false;
      queue.poke();
    }
  };
  /** A size asked for before claude's PTY exists (a desk attached through the hub, or a viewer
   *  taking control, while claude is still being launched): the PTY starts at it. */
  let sizeBeforeSpawn: { cols: number; rows: number } | null = null;
  const resizePty = (next: { cols: number; rows: number }) => {
    if (!pty) sizeBeforeSpawn = next;
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
    if (!identitySettled) log(`--continue: session ${state.id} (${why})`);
    identitySettled = true;
    startHubLink();
  };
  core.onCleanup(() => identityTimer && clearTimeout(identityTimer));
  if (!continuing) settleIdentity('known at start');
  // The desk answers in claude's own dialog; approvals notice it on the screen (approvals.screen).
  const approvals = core.createApprovals({
    onPlanApproved: ({ planMode }) => {
      if (!agent.confirmPlan) return;
      const confirm = agent.confirmPlan({
        screen,
        write: (data) => {
          log(`plan approved: pressing ${data} in claude's "Exit plan mode?" dialog`);
          pty?.write(data);
        },
      });
      core.onCleanup(() => confirm.stop());
      // claude 2.1.33x keeps its dialog after the hook's answer, and its "Yes" puts claude in its own
      // mode over the one the hook set (2.1.197 takes the hook's): the phone's choice is then set
      // as the desk would, with Shift+Tab.
      void confirm.done.then((pressed) => {
        if (pressed && planMode && state.permissionMode !== planMode) void setMode(planMode);
      });
    },
  });

  handToDesk = () => approvals.handToDesk();

  // Before the first await: the hub link may connect from here on, and its onConnected re-sends an
  // open dialog request.
  /** The status a dialog request interrupted, restored when it closes. */
  let beforeDialog: typeof state.status | null = null;
  const dialogs = createDialogRelay({
    sessionId: () => state.id,
    link: core.link,
    read: async () => agent.screen.readDialog((await screen.state()).lines),
    write: (keys) => pty?.write(keys),
    covered: () => approvals.open(),
    deskActive: () => Date.now() - lastDeskKeyAt < DIALOG_DESK_ACTIVE_MS,
    onWaiting: (waiting) => {
      if (waiting) beforeDialog = state.status;
      if (waiting) setStatus('waiting');
      else if (state.status === 'waiting' && beforeDialog && beforeDialog !== 'ended' && beforeDialog !== 'failed') setStatus(beforeDialog);
    },
    log,
  });
  core.onCleanup(() => dialogs.stop());

  // ---- claude binary, hooks (status, identity, transcript) and settings
  const { binary, plan } = await core.prepareLaunch({
    approvals,
    hooks: {
      onSessionStart: (p) => {
        if (identitySettled) return;
        const known = p.source === 'resume' && typeof p.session_id === 'string' ? loadResumeState({ home: options.tetherHome, claudeSessionId: p.session_id }) : null;
        if (known) core.adopt(known);
        settleIdentity(known ? `continues claude session ${String(p.session_id)}` : 'a claude session tether has not seen');
      },
      onTranscript: (path, source) => core.followTranscript({ path, continued: core.resumed?.transcriptPath === path && source === 'resume' }),
      onStop: () => {
        setStatus('idle');
        queue.turnEnded();
      },
      onToolEvent: ({ phase, payload }) => {
        if (typeof payload.tool_use_id !== 'string') return;
        if (phase === 'start') moments.started(payload.tool_use_id, payload.tool_input);
        else moments.ended(payload.tool_use_id, payload.tool_input);
      },
    },
  });
  if (plan.bypass) log('permission bypass requested by the user: claude asks nobody, so nothing reaches the hub');

  // ---- the desk and the PTY
  let statusWatch: { stop(): void } | null = null;
  let desk: LocalTerminal | null = null;
  let ready = false;
  let readyAt: number | null = null;
  const startedAt = Date.now();
  let checkTimer: ReturnType<typeof setTimeout> | null = null;
  /** Ctrl-Z at the desk: claude draws this and waits for SIGCONT (inside our PTY its own TSTP is
   *  discarded: no job-control shell there). tether then suspends itself, as `claude` would. */
  let suspendedEpisode = false;
  const followSuspend = (text: string) => {
    if (!desk?.interactive || !ready) return;
    if (!agent.screen.suspended?.(text)) {
      suspendedEpisode = false;
      return;
    }
    if (suspendedEpisode) return;
    suspendedEpisode = true;
    log('claude suspended at the desk (Ctrl-Z): stopping tether too');
    void desk.suspend().then(() => {
      log('continued (fg): resuming claude');
      if (pty) {
        try {
          process.kill(pty.pid, 'SIGCONT');
        } catch {
          // claude already gone: the exit path reports it
        }
        if (desk) resizePty(desk.size()); // the window may have changed while we were stopped
      }
    });
  };
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
    void screen.state().then(({ text, lines, promptState }) => {
      const dialog = agent.screen.readDialog(lines);
      // A dialog before SessionStart (trust, MCP…): the hub must hear it, so the identity waits no more.
      if (!ready && !identitySettled && dialog) settleIdentity('a dialog before the prompt');
      dialogs.seen(dialog);
      followSuspend(text);
      approvals.screen(promptState.kind);
      core.followEffort(agent.screen.effort?.(text));
      // The footer names the mode only at an idle, empty prompt (busy or typing, it says other things).
      const mode = ready && promptState.kind === 'ready' && promptState.inputEmpty && !switchingMode ? agent.screen.footerMode?.(lines) : null;
      if (mode) core.followMode(mode);
      if (!ready && promptState.kind !== 'starting') {
        ready = true;
        readyAt = Date.now();
        log(`ready in ${readyAt - startedAt} ms`);
        if (state.status === 'starting') setStatus('idle');
      }
      queue.poke();
    });
  };
  const size = options.desk === 'attached' ? null : DEFAULT_SIZE;
  if (options.desk === 'attached') {
    desk = attachLocalTerminal({
      onInput: deskTyped,
      onResize: (next) => resizePty(next),
      onSignal: (signal) => {
        log(`got ${signal}: stopping claude`);
        pty?.kill(signal === 'SIGHUP' ? 'SIGHUP' : 'SIGTERM');
      },
    });
    core.onCleanup(() => desk?.restore());
  } else {
    core.stopOnSignals(() => pty?.kill('SIGTERM'));
  }
  const initial = desk?.interactive ? desk.size() : (sizeBeforeSpawn ?? size ?? DEFAULT_SIZE);
  // No PTY yet: this sizes the screen model and tells the hub, which may have heard another size
  // before the spawn (its link connects first).
  resizePty(initial);
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
      quiet: core.pace.quiet,
    });
  } catch (error) {
    return core.failEarly(`could not start ${binary}: ${error instanceof Error ? error.message : String(error)}`);
  }
  log(`session ${state.id}: spawned ${binary} (pid ${pty.pid}) ${JSON.stringify(plan.args)}`);
  ender = agent.endPty({ pty, log });
  if (!identitySettled) identityTimer = setTimeout(() => settleIdentity('no SessionStart in time'), CONTINUE_IDENTITY_WAIT_MS);
  // Bytes as read: the screen model and the hub take them as they are; only the desk gets text.
  const deskDecoder = new TextDecoder();
  pty.onData(({ data, offset }) => {
    core.pace.stir();
    screen.write(data);
    if (desk) desk.write(deskDecoder.decode(data, { stream: true }));
    stream?.data({ data, offset });
    bytesSinceCheck += data.length;
    if (!checkTimer) checkTimer = setTimeout(checkScreen, 16);
  });
  statusWatch = agent.watchStatus?.({
    env,
    pid: pty.pid,
    sessionId: () => state.claudeSessionId,
    poll: core.pace.poll,
    onChange: (fileStatus) => {
      if (fileStatus === 'idle' && state.status !== 'starting') {
        // Esc ends a turn without a Stop hook; claude's own status file still says idle.
        setStatus('idle');
        queue.turnEnded();
      } else if (fileStatus === 'busy' && state.status === 'idle') {
        setStatus('thinking');
      } else if (fileStatus === 'waiting') {
        setStatus('waiting');
      }
    },
  }) ?? null;
  core.onCleanup(() => statusWatch?.stop());

  const exit = await pty.exited;
  settleIdentity('claude exited');
  if (checkTimer) clearTimeout(checkTimer);
  const finalScreen = await screen.state();
  const failure = ready
    ? null
    : describeEarlyExit({
        exitCode: exit.exitCode,
        signal: exit.signal ?? null,
        before: 'its prompt appeared',
        lines: finalScreen.text
          .split('\n')
          .map((l) => l.trimEnd())
          .filter((l) => l.trim() !== ''),
      });
  const result = await core.finish({
    exitCode: exit.exitCode,
    failure,
    closePrompts: () => queue.close('the session ended'),
    // The last screen reaches the hub before session:end, so a late viewer sees how it ended.
    beforeEnd: async () => {
      await stream?.final(FINAL_SNAPSHOT_MS);
    },
  });
  log(`session ${state.id}: claude exited with ${exit.exitCode}${readyAt ? ` (ready after ${readyAt - startedAt} ms)` : ''}`);
  return result;
}
