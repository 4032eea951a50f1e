// session.ts: one agent session in a PTY from spawn to exit, the interactive launch kind's
// composition of its parts.
//
//   desk terminal ◄──► PTY (the agent) ──bytes──► screen model (is the prompt ready/empty?)
//                        ▲    │                └─► hub terminal:output (while someone watches)
//     prompt queue ──────┘    └─ hooks ──► session/core: status, identity, transcript → chat, approvals
//   hub /cli ──► prompt:deliver, abort, model, terminal input/resize/desk, approval answers (pty-link.ts)
//
// What every launch kind shares (log, identity and resume state, hub link and outbox, hooks,
// transcript → chat, session:end and the drain) is ../session/; every request to a person is
// ../requests/; what differs per agent is its room in agents/ (Agent). The parts of a PTY session:
// the desk (desk.ts), the screen reads (screen-watch.ts), the hub link and its commands
// (pty-link.ts), mode switches (mode-control.ts), `-c`'s identity wait (identity-gate.ts), the dialog
// bridge (dialogs/) and the prompt queue.
//
// An attached session (runner/attached/ hands it in as options.attached) runs the same parts around
// the agent's attach view instead of a launch: no hooks, its transcript known from the start, and
// End detaches.
//
// Invariants: "ready" means the agent's input is on screen (and, for an agent that needs it, its
// SessionStart hook ran: start-gate.ts); the agent exiting before that is a
// failed session with the reason (its last screen lines), shown at the desk and on the hub, and is
// never respawned. The hub being down never stops the agent. The final screen reaches the hub before
// session:end. Everything started here is released on every exit path (core.onCleanup: screen,
// queue, terminal stream, desk terminal, hook server, hook files, tails, link).
import type { PromptState } from '../../screen/prompt-state.ts';
import { readAgentStatus } from './agent-status.ts';
import { spawnPty } from '../../pty/pty.ts';
import { drawsText } from '../../pace/visible-text.ts';
import { DEFAULT_SIZE } from '../../pty/local-terminal.ts';
import { createScreenModel } from '../../screen/screen.ts';
import type { Agent } from '../../agents/agent.ts';
import { FREE_TEXT_MAX_CHARS } from '@tether/shared';
import { createDialogBridge, type DialogBridge } from '../../dialogs/bridge.ts';
import { PASTE_SETTLE_MS } from './prompt-typing.ts';
import { createPromptQueue } from './prompt-queue.ts';
import { createToolMoments } from './tool-moments.ts';
import { createSessionCore, describeEarlyExit, type RunnerOptions, type RunnerResult, type SessionCore } from '../session/core.ts';
import type { Approvals } from '../requests/approvals.ts';
import type { PtyContext } from './pty-context.ts';
import { createDesk, type Desk } from './desk.ts';
import { createModeControl } from './mode-control.ts';
import { createModelControl, type ModelControl } from './model-control.ts';
import { createScreenWatch } from './screen-watch.ts';
import { createIdentityGate } from './identity-gate.ts';
import { createStartGate, type StartGate } from './start-gate.ts';
import { startPtyLink } from './pty-link.ts';

/** How long the final screen may take to reach the hub before session:end goes anyway. */
const FINAL_SNAPSHOT_MS = 1_000;
/** A dialog that comes up this soon after a key at the desk was opened by someone sitting there. */
const DIALOG_DESK_ACTIVE_MS = 3_000;
/** Unparsed bytes the screen model may lag behind the PTY before reading pauses (xterm throws past
 *  50 MB queued). 8 MiB is ~80 ms of parsing here. */
const SCREEN_MAX_BACKLOG_BYTES = 8 * 1024 * 1024;
/** The typing gate's screen read is retried this often when output overtook it; output that keeps
 *  coming means the prompt is not idle. */
const GATE_READ_TRIES = 3;

/** A PTY session of `agent` (the dispatcher in ../runner.ts chose this launch kind). */
export async function runPtySession(options: RunnerOptions, agent: Agent): Promise<RunnerResult> {
  const ctx = startPtyParts({ options, agent });
  const { core } = ctx.pty;
  const attached = options.attached;
  if (attached) {
    // A background session tether attaches to: no launch plan, no hooks of ours (it started without
    // them); its conversation is known, so its transcript is the chat from the start.
    core.log(`attached to ${agent.name} background session ${attached.backgroundId} (${attached.agentSessionId}): no hook approvals; its dialogs are read from its screen`);
    core.followTranscript({ path: attached.transcriptPath, continued: false });
    return runPty({ ...ctx, binary: attached.binary, args: attached.args });
  }
  const { binary, plan, hearing } = await core.prepareLaunch({ approvals: ctx.approvals, hooks: ptyHooks(ctx) });
  if (hearing) ctx.start.hearing(hearing);
  if (plan.bypass) core.log(`permission bypass requested by the user: ${agent.name} asks nobody, so nothing reaches the hub`);
  return runPty({ ...ctx, binary, args: plan.args });
}

type PtyParts = { pty: PtyContext; desk: Desk; approvals: Approvals; dialogs: DialogBridge; identity: ReturnType<typeof createIdentityGate>; moments: ReturnType<typeof createToolMoments>; modes: ReturnType<typeof createModeControl>; start: StartGate };

/** Everything a PTY session needs before the agent is spawned, wired together. */
function startPtyParts(o: { options: RunnerOptions; agent: Agent }): PtyParts {
  const { options, agent } = o;
  // Parts made below are reached through these once they exist (the core's callbacks run later).
  let parts = null as PtyParts | null;
  let desk = null as Desk | null;
  const core: SessionCore = createSessionCore({
    options,
    launchKind: 'pty',
    deskAttached: () => desk?.attached() ?? options.desk === 'attached',
    matchPrompt: (text) => queue.matchPrompt(text),
    beforeFailEarly: () => parts?.identity.settle(`${agent.name} never started`),
    stampMessages: (messages) => moments.stamp(messages),
    // Esc ends a turn with no Stop hook; claude's status file says so too, but only when a poll
    // catches it (a floor CI run stayed 'thinking' after an abort). The transcript always does.
    onInterrupted: () => {
      if (!core.status.turnRunning()) return;
      core.log('turn interrupted (transcript)');
      core.status.publish({ kind: 'turnEnded' });
      queue.turnEnded();
    },
    // An agent whose Stop hook comes early (Codex): its transcript ends the turn. History re-read
    // at a resume finds the session starting, and changes nothing.
    onTurnEnded: () => {
      if (core.state.status !== 'thinking' && core.state.status !== 'waiting') return;
      core.status.publish({ kind: 'turnEnded' });
      queue.turnEnded();
    },
  });
  const screen = createScreenModel({ ...(options.desk === 'attached' && process.stdout.columns ? { cols: process.stdout.columns, rows: process.stdout.rows } : DEFAULT_SIZE), readPrompt: agent.screen.readPrompt });
  core.onCleanup(() => screen.stop());
  const run = crypto.randomUUID();
  // Every byte reaches the screen model as it is read, so its count is the PTY offset.
  const moments = createToolMoments({ run, offset: () => screen.written(), mark: (shows) => void screen.mark(shows ? { shows } : {}) });
  /** The typing gate's read: the screen after every byte so far. A read that more output overtook
   *  is stale, so it is asked again; output that never pauses counts as a busy prompt. */
  const gateState = async (): Promise<PromptState> => {
    for (let i = 0; i < GATE_READ_TRIES; i++) {
      const read = await screen.state();
      if (read.offset === screen.written()) return read.promptState;
    }
    return { kind: 'busy' };
  };
  const queue = createPromptQueue({
    screen: gateState,
    // `status` merges hook events and the agent's own status file (watchStatus below).
    turnIdle: () => core.state.status === 'idle',
    write: (data) => ctx.pty?.write(data),
    ...(agent.pasteSettleMs ? { pasteSettleMs: agent.pasteSettleMs } : {}),
    report: ({ promptId, status, reason }) => {
      core.log(`prompt ${promptId.slice(0, 8)}: ${status}${reason ? ` (${reason})` : ''}`);
      core.link()?.push('prompt:status', { sessionId: core.state.id, promptId, status, reason: reason ?? null });
    },
  });
  core.onCleanup(() => queue.stop());
  const ctx: PtyContext = { options, agent, core, screen, queue, run, pty: null, stream: null, ender: null };
  core.onCleanup(() => ctx.stream?.stop());
  desk = createDesk(ctx, { handToDesk: () => parts?.approvals.handToDesk() ?? false });
  const modes = createModeControl(ctx);
  const models = createModelControl(ctx);
  // `-c`: the agent picks the session to continue; the hub link waits for SessionStart to name it.
  const identity = createIdentityGate({
    core,
    continuing: core.plan.continue && !core.resumed && options.hub !== null,
    tetherHome: options.tetherHome,
    open: () => startPtyLink(ctx, { desk: desk!, setMode: (mode) => void modes.set(mode), models }),
  });
  const confirming: PlanConfirmations = new Set();
  const approvals = createPtyApprovals(ctx, { modes, confirming });
  const start = createStartGate({ waitForSessionStart: agent.inputAfterSessionStart === true, ready: () => {
      core.status.publish({ kind: 'ready' });
      queue.poke(); // a prompt sent while it started
    },
    log: core.log,
  });
  core.onCleanup(() => start.stop());
  parts = { pty: ctx, desk, approvals, dialogs: createPtyDialogs(ctx, { approvals, desk, models, confirming }), identity, moments, modes, start };
  // Once every part exists: the link opens with the session's commands wired to them.
  if (identity.settled()) identity.settle('known at start');
  return parts;
}

/** Plan dialogs the runner is confirming for a plan the hub approved (agent.confirmPlan). */
type PlanConfirmations = Set<{ covers(screenText: string): boolean }>;

/** Approvals as the desk sees them: the agent's own dialog at the desk answers too (approvals.screen);
 *  a plan the phone approved is confirmed in the agent's plan dialog when it keeps one. */
function createPtyApprovals(ctx: PtyContext, o: { modes: ReturnType<typeof createModeControl>; confirming: PlanConfirmations }): Approvals {
  const { agent, core, screen } = ctx;
  return core.createApprovals({
    onPlanApproved: ({ planMode }) => {
      if (!agent.confirmPlan) return;
      const confirm = agent.confirmPlan({
        screen,
        write: (data) => {
          core.log(`plan approved: pressing ${data} in the agent's plan dialog`);
          ctx.pty?.write(data);
        },
      });
      core.onCleanup(() => confirm.stop());
      // Until it is done, that dialog is the approved plan's: a slow claude may draw it only after the
      // hook's answer, or keep it up past the closing moment, and the phone must not be asked again.
      o.confirming.add(confirm);
      // claude 2.1.33x keeps its dialog after the hook's answer, and its "Yes" puts claude in its own
      // mode over the one the hook set (2.1.197 takes the hook's): the phone's choice is then set
      // as the desk would, with Shift+Tab.
      void confirm.done.then((pressed) => {
        o.confirming.delete(confirm);
        if (pressed && planMode && core.state.permissionMode !== planMode) void o.modes.set(planMode);
      });
    },
  });
}

/** Any choice the agent draws that no hook request covers, asked on the hub (dialogs/). */
function createPtyDialogs(ctx: PtyContext, o: { approvals: Approvals; desk: Desk; models: ModelControl; confirming: PlanConfirmations }): DialogBridge {
  const { agent, core, screen } = ctx;
  const dialogs = createDialogBridge({
    sessionId: () => core.state.id,
    requests: core.requests,
    read: async () => agent.screen.readDialog((await screen.state()).lines),
    write: (keys) => ctx.pty?.write(keys),
    // A request's own dialog, the agent's model picker or an approved plan's dialog the runner is
    // driving, is no dialog to ask.
    covered: (dialog) => o.approvals.open() || o.models.switching() || [...o.confirming].some((plan) => plan.covers(dialog.text.join('\n'))),
    closing: () => o.approvals.closing(),
    deskActive: () => Date.now() - o.desk.lastKeyAt() < DIALOG_DESK_ACTIVE_MS,
    freeTextMaxChars: FREE_TEXT_MAX_CHARS[agent.kind],
    enterAfterPasteMs: agent.pasteSettleMs ?? PASTE_SETTLE_MS,
    log: core.log,
  });
  core.onCleanup(() => dialogs.stop());
  return dialogs;
}

/** What a PTY session does with the agent's hook events beyond the core's (session/core). */
function ptyHooks(parts: PtyParts): Parameters<SessionCore['prepareLaunch']>[0]['hooks'] {
  const { core, queue } = parts.pty;
  return {
    onSessionStart: (payload) => {
      parts.identity.sessionStarted(payload);
      parts.start.sessionStarted();
    },
    onTranscript: (path, source) => core.followTranscript({ path, continued: core.resumed?.transcriptPath === path && source === 'resume' }),
    onStop: () => {
      // The agent's transcript says when its turn is over, a moment after this hook.
      if (parts.pty.agent.turnEndsInTranscript) return;
      // A Stop means the agent is at its prompt, even if the screen has not shown it yet.
      core.status.publish({ kind: 'ready' });
      core.status.publish({ kind: 'turnEnded' });
      queue.turnEnded();
    },
    onToolEvent: ({ phase, payload }) => {
      if (typeof payload.tool_use_id !== 'string') return;
      if (phase === 'start') parts.moments.started(payload.tool_use_id, payload.tool_input);
      else parts.moments.ended(payload.tool_use_id, payload.tool_input);
    },
  };
}

/** Spawns the agent in its PTY, mirrors its bytes, and ends the session when it exits. */
async function runPty(parts: PtyParts & { binary: string; args: string[] }): Promise<RunnerResult> {
  const ctx = parts.pty;
  const { options, agent, core, screen, queue } = ctx;
  const { log, state } = core;
  const watch = createScreenWatch(ctx, {
    onRead: ({ text, lines, promptState, dialog, ready }) => {
      // A dialog before SessionStart (trust, MCP…): the hub must hear it, so the identity waits no more.
      if (!ready && !parts.identity.settled() && dialog) parts.identity.settle('a dialog before the prompt');
      parts.dialogs.seen(dialog);
      // Not only once ready: Ctrl-Z typed as the prompt appears can suspend the agent in the same
      // read that first shows the prompt (or wipes it), and a stopped agent draws nothing after.
      parts.desk.followSuspend(text);
      parts.approvals.screen(promptState.kind);
      parts.start.screenRead(promptState.kind);
      core.followEffort(agent.screen.effort?.(text));
      // The footer names the mode only at an idle, empty prompt (busy or typing, it says other things).
      const idle = ready && promptState.kind === 'ready' && promptState.inputEmpty && !parts.modes.switching();
      const mode = idle ? agent.screen.footerMode?.(lines) : null;
      if (mode) core.followMode(mode);
      const asksToo = idle ? agent.screen.ownPolicyAsks?.(lines) : null;
      if (typeof asksToo === 'boolean') state.agentAsksToo = asksToo;
    },
    onReady: (afterMs) => parts.start.inputShown(afterMs),
  });
  parts.desk.start();
  const initial = parts.desk.initialSize();
  // No PTY yet: this sizes the screen model and tells the hub, which may have heard another size
  // before the spawn (its link connects first).
  parts.desk.resize(initial);
  try {
    ctx.pty = spawnPty({
      file: parts.binary,
      args: parts.args,
      cwd: options.cwd,
      env: core.env,
      cols: initial.cols,
      rows: initial.rows,
      // The screen model must see every byte (snapshots, prompt state): when it is far behind, stop
      // reading until it caught up; the writer then blocks on the kernel's PTY buffer.
      hold: () => (screen.backlog() > SCREEN_MAX_BACKLOG_BYTES ? screen.settled() : null),
      quiet: core.pace.quiet,
    });
  } catch (error) {
    return core.failEarly(`could not start ${parts.binary}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const pty = ctx.pty;
  log(`session ${state.id}: spawned ${parts.binary} (pid ${pty.pid}) ${JSON.stringify(parts.args)}`);
  // End of an attached session leaves the agent's view only: the session runs on in its pool.
  ctx.ender = options.attached ? options.attached.detach({ pty, log }) : agent.endPty({ pty, log });
  parts.identity.spawned();
  // Bytes as read: the screen model and the hub take them as they are; only the desk gets text.
  const deskDecoder = new TextDecoder();
  pty.onData(({ data, offset }) => {
    // Only text is a sign of life: an idle claude's cursor-only redraws would wake every poll.
    if (drawsText(data)) core.pace.stir();
    screen.write(data);
    parts.desk.local()?.write(deskDecoder.decode(data, { stream: true }));
    ctx.stream?.data({ data, offset });
    watch.output(data.length);
  });
  /** Whether the status file has shown a turn (busy or waiting) since it last said idle. */
  let fileSawTurn = false;
  const statusWatch = agent.watchStatus?.({
    env: core.env,
    pid: pty.pid,
    sessionId: () => state.agentSessionId,
    poll: core.pace.poll,
    onChange: (status, writtenAt) => {
      const read = readAgentStatus({ reading: { status, writtenAt }, session: state.status, fileSawTurn, turnEndedAt: core.status.turnEndedAt() });
      fileSawTurn = read.fileSawTurn;
      for (const fact of read.facts) core.status.publish(fact);
      if (read.turnEnded) queue.turnEnded();
    },
  });
  core.onCleanup(() => statusWatch?.stop());

  const exit = await pty.exited;
  parts.identity.settle(`${agent.name} exited`);
  watch.stop();
  const finalScreen = await screen.state();
  // An attach view that exits cleanly was left (Ctrl+Z at the desk) even before its prompt showed.
  const failure = watch.ready() || (options.attached && exit.exitCode === 0)
    ? null
    : describeEarlyExit({
        agent: agent.name,
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
    endBegan: ctx.ender?.began() ?? false,
    closePrompts: () => queue.close('the session ended'),
    // The last screen reaches the hub before session:end, so a late viewer sees how it ended.
    beforeEnd: async () => {
      await ctx.stream?.final(FINAL_SNAPSHOT_MS);
    },
  });
  const after = watch.readyAfterMs();
  log(`session ${state.id}: ${agent.name} exited with ${exit.exitCode}${after !== null ? ` (ready after ${after} ms)` : ''}`);
  return result;
}
