// session.ts: one headless session (launch kind `headless`, no terminal), whatever the agent: the
// composition root of runner/headless/. The agent brings only its transport (Agent.headless:
// agents/headless-transport.ts); the session around it is the same for every agent, on top of
// session/core.ts, which a PTY session shares.
//
//   hub prompt:deliver ─► turns (one at a time) ─► transport.send ─► the agent's protocol
//   transport events: ready · turn started/ended · session id · transcript · ask · elicit ─► status,
//                     turns, session facts, transcript → chat, approvals and forms (asking.ts)
//   hub commands ─► session/commands.ts (the table every launch kind shares) ─► transport
//   End ─► after the turn in flight (interrupted), the agent's input closed (agents/ender.ts)
//   joinable ─► a 0600 record for the desk's TUI (desk-join/), removed when the session ends; a turn
//               the desk starts is the session's turn too (no prompt of the hub's is sent under it)
//
// Invariants: the agent exiting before its transport said ready is a failed session, with its
// stderr (and the transport's own lines) as the reason. With no hub to ask, a request is answered no.
import type { HeadlessEvents, HeadlessTransport, HeadlessTurn } from '../../agents/headless-transport.ts';
import type { Agent } from '../../agents/agent.ts';
import { createTurnEnder, type TurnEnder } from '../../agents/ender.ts';
import type { HubCommandHandlers } from '../../hub-link/commands.ts';
import { writeDeskJoin } from '../../desk-join/join-file.ts';
import { createSessionCore, describeEarlyExit, type SessionCore } from '../session/core.ts';
import type { RunnerOptions, RunnerResult } from '../session/options.ts';
import type { SessionHooks } from '../session/hook-events.ts';
import { sessionCommands } from '../session/commands.ts';
import { createHeadlessAsking } from './asking.ts';
import { spawnHeadless } from './process.ts';
import { createHeadlessTurns, type HeadlessTurns } from './turns.ts';

type Parts = { core: SessionCore; transport: HeadlessTransport; turns: HeadlessTurns<HeadlessTurn>; ender: () => TurnEnder | null; options: RunnerOptions; unjoinable: Array<() => void> };

export async function runHeadlessSession(options: RunnerOptions, make: NonNullable<Agent['headless']>): Promise<RunnerResult> {
  let turns = null as HeadlessTurns<HeadlessTurn> | null;
  const core = createSessionCore({ options, launchKind: 'headless', deskAttached: () => false, matchPrompt: (text) => turns?.matchPrompt(text) ?? null });
  const { log, state } = core;
  let ender: TurnEnder | null = null;
  const approvals = core.createApprovals({});
  const asking = createHeadlessAsking({ core, approvals, elicitations: core.elicitations });
  const parts = {} as Parts;
  const transport = make({ log, cwd: options.cwd, env: core.env, stateDir: options.tetherHome, userArgs: options.userArgs, plan: () => core.plan, events: headlessEvents({ parts, asking }) });
  parts.core = core;
  parts.options = options;
  parts.unjoinable = [];
  parts.transport = transport;
  parts.ender = () => ender;
  parts.turns = turns = createHeadlessTurns<HeadlessTurn>({
    report: (promptId, status, reason = null) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status, reason }),
    ...(transport.canSend ? { canSend: transport.canSend } : {}),
    send: (item) => transport.send(item.content),
    onTurnSent: () => core.status.publish({ kind: 'turnStarted' }),
  });
  // A transport without hooks needs nothing before its binary is found; one with them gets its hook
  // server once the link is open (prepareLaunch), so a failure there is said on the hub.
  const early = transport.hooks ? null : await binaryAndArgs({ core, env: options.env, transport, approvals, hooks: headlessHooks(parts) });
  core.startLink({
    onConnected: () => core.requests.reconnected(),
    commands: headlessCommands(parts),
  });
  const launch = early ?? (await binaryAndArgs({ core, env: options.env, transport, approvals, hooks: headlessHooks(parts) }));
  const proc = spawnHeadless({ core, binary: launch.binary, args: launch.args, cwd: options.cwd });
  if ('error' in proc) return core.failEarly(proc.error);
  const reading = transport.start({ stdin: proc.stdin, stdout: proc.stdout, onStderr: proc.onStderr, stop: () => proc.stop() });
  // The phone's End / `tether stop`: after the turn in flight (interrupted), the agent's input is
  // closed and it exits when it has read it to the end.
  ender = createTurnEnder({ busy: () => parts.turns.busy(), interrupt: () => transport.interrupt(), closeInput: () => transport.closeInput(), exited: proc.exited, force: () => proc.stop(), log });

  const { exitCode, signal, stderrLines } = await proc.ended();
  for (const remove of parts.unjoinable.splice(0)) remove();
  await reading;
  const failure = parts.turns.ready()
    ? null
    : describeEarlyExit({ agent: core.agent.name, exitCode, signal, before: transport.readyIs, lines: [...(transport.failureLines?.() ?? []), ...stderrLines] });
  const result = await core.finish({ exitCode, failure, endBegan: ender.began(), closePrompts: () => parts.turns.close({ sent: 'the session ended', queued: 'the session ended' }) });
  log(`session ${state.id}: headless ${core.agent.name} exited with ${exitCode}`);
  return result;
}

/** The agent's binary and command line: with tether's hooks installed when its transport takes them. */
async function binaryAndArgs(o: { core: SessionCore; env: NodeJS.ProcessEnv; transport: HeadlessTransport; approvals: Parameters<SessionCore['prepareLaunch']>[0]['approvals']; hooks: SessionHooks }): Promise<{ binary: string; args: string[] }> {
  const { core, transport } = o;
  if (transport.hooks) {
    const { binary, plan } = await core.prepareLaunch({ approvals: o.approvals, hooks: o.hooks });
    return { binary, args: transport.args(plan) };
  }
  try {
    return { binary: core.agent.findBinary({ env: o.env }), args: transport.args(core.plan) };
  } catch (error) {
    return core.failEarly(error instanceof Error ? error.message : String(error));
  }
}

/** The transcript a hook or the transport names: followed from the resume state's offset when it is
 *  the one that state was saved for and nothing tails it yet. */
function followTranscript(core: SessionCore, path: string): void {
  const current = core.transcript();
  if (current.path === path) return;
  core.followTranscript({ path, continued: core.resumed?.transcriptPath === path && !current.tailing });
}

/** tether's hooks, for a transport that has them: the session id and the transcript (turns end on
 *  the transport's word, not the Stop hook). */
function headlessHooks(parts: Parts): SessionHooks {
  return {
    nameSession: (id) => parts.core.nameUnwrittenSession(id),
    onTranscript: (path) => followTranscript(parts.core, path),
  };
}

/** What the transport tells, made into status, turns, facts and chat. */
function headlessEvents(o: { parts: Parts; asking: ReturnType<typeof createHeadlessAsking> }): HeadlessEvents {
  const { parts } = o;
  return {
    activity: () => parts.core.pace.stir(),
    ready: (ready) => {
      if (ready?.slashCommands) parts.core.reportSlashCommands(ready.slashCommands);
      parts.core.status.publish({ kind: 'ready' });
      parts.turns.becameReady();
    },
    turnStarted: () => {
      parts.turns.turnStarted();
      parts.core.status.publish({ kind: 'turnStarted' });
    },
    turnEnded: () => {
      parts.turns.turnEnded();
      if (parts.ender()?.turnEnded()) return;
      parts.core.status.publish({ kind: 'turnEnded' });
      parts.turns.pump();
    },
    turnRefused: (reason) => {
      parts.turns.turnEnded();
      parts.turns.close({ sent: reason, queued: 'the turn before it failed' });
      parts.core.status.publish({ kind: 'turnEnded' });
    },
    session: ({ id, written, model }) => {
      const { core } = parts;
      if (model) core.state.model = model;
      if (written) {
        core.state.agentSessionId = id;
        core.patch({ agentSessionId: id, ...(model ? { model } : {}) });
        return;
      }
      // Told to the hub once the transcript has a line: before it, resuming the id finds no
      // conversation, so Resume or `tether attach` would fail the session.
      if (id !== core.state.agentSessionId) core.nameUnwrittenSession(id);
      if (model) core.patch({ model });
    },
    transcript: (path) => followTranscript(parts.core, path),
    ask: (request) => o.asking.ask(request),
    elicit: (request) => o.asking.elicit(request),
    withdraw: (id) => o.asking.withdraw(id),
    joinable: (join) => {
      const { core, options } = parts;
      parts.unjoinable.push(writeDeskJoin({ home: options.tetherHome, sessionId: core.state.id, join: { ...join, agent: core.agent.name, cwd: options.cwd, pid: process.pid } }));
      core.log(`session ${core.state.id}: its agent's TUI may join at this machine's desk (tether ${core.agent.name} --join ${core.state.id})`);
    },
  };
}

/** How a headless session carries out the hub's commands (session/commands.ts): through its transport. */
function headlessCommands(o: Parts): HubCommandHandlers {
  const { core, transport, turns } = o;
  const { log, state } = core;
  const { setMode, setEffort } = transport;
  const dropped = (promptId: string, reason: string) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status: 'dropped', reason });
  return sessionCommands(core, {
    // Headless: nobody types at a desk, so every prompt and answer is remote (controller).
    deliver: (delivery) => {
      const { promptId } = delivery;
      if (!turns.claim(promptId)) return;
      // Files as the agent takes them: content blocks in the turn, or written under the session's
      // temp dir (images go as the agent's image inputs, other files are named in the text).
      if (transport.files === 'blocks') {
        core.attachments.forHeadless(delivery, { ready: (content) => turns.enqueue({ promptId, text: delivery.text, content: { text: delivery.text, content, images: [] } }), failed: (reason) => dropped(promptId, reason) });
      } else {
        core.attachments.forLocalImages(delivery, { ready: (prompt) => turns.enqueue({ promptId, text: prompt.text, content: { text: prompt.text, content: prompt.text, images: prompt.images } }), failed: (reason) => dropped(promptId, reason) });
      }
    },
    abort: () => {
      if (!turns.busy()) return;
      transport.interrupt();
      turns.close({ sent: 'aborted', queued: 'queued behind an aborted turn' });
    },
    closePrompts: (why) => turns.close({ sent: why, queued: why }),
    end: () => o.ender()?.end(),
    setModel: (model) => {
      transport.setModel(model);
      state.model = model;
      core.patch({ model });
      core.finishedCommand({ command: '/model', args: model, outcome: 'applied' });
    },
    ...(setMode
      ? {
          setMode: (mode) => {
            if (mode === 'bypassPermissions' && !core.plan.bypass) return log('mode switch to bypassPermissions refused: the session was not started allowing it');
            void setMode(mode).then((answer) => (answer.ok ? core.followMode(mode) : log(`permission mode not switched to ${mode}: ${answer.reason}`)));
          },
        }
      : {}),
    ...(setEffort ? { setEffort: (level) => core.followEffort(setEffort(level)) } : {}),
  });
}
