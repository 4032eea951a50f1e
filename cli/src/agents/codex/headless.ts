// headless.ts: one headless Codex session (launch kind `headless`): `codex app-server`, JSON-RPC on
// its stdio (app-server.ts), no terminal. The approvals, rollout → chat, hub link and session end are
// session-core.ts, shared with every runner; this file holds only how Codex is driven.
//
//   initialize ─► thread/start (or thread/resume <id>) = ready: its rollout path is the transcript
//   hub prompt:deliver ─► turns (one at a time) ─► turn/start (text, localImage) ─► turn/started … turn/completed = over
//   Codex's item/commandExecution|fileChange/requestApproval ─► approvals (hub) ─► accept | decline
//   hub session:abort ─► turn/interrupt          hub session:stop ─► after the turn, stdin closed
//   hub session:set-model, session:set-effort ─► the next turn/start carries them
//
// Codex asks over JSON-RPC exactly when its approval policy (the user's config) says a person must,
// so tether's own hooks are not installed here. With no hub to ask, the answer is decline: nobody
// is at a desk to answer instead. Requests tether cannot put to a person yet (a tool's questions,
// an MCP server's form, extra permissions) are answered with an error, which Codex takes as no.
import type { EffortLevel } from '@tether/shared';
import type { HubCommandHandlers } from '../../hub-link/commands.ts';
import { createHeadlessTurns, type HeadlessTurns } from '../../runner/headless-turns.ts';
import { createSessionCore, describeEarlyExit, type RunnerOptions, type RunnerResult, type SessionCore } from '../../runner/session-core.ts';
import type { Approvals } from '../../runner/approvals.ts';
import { createTurnEnder, type TurnEnder } from '../ender.ts';
import { spawnHeadless } from '../headless-process.ts';
import { connectAppServer, type AppServer } from './app-server.ts';
import { askCodex, type CodexAsking } from './headless-approvals.ts';

/** A prompt as a turn sends it: its text, and the paths of its images. */
type CodexPrompt = { text: string; images: string[] };

/** What the JSON-RPC client calls itself in Codex's user agent. */
const CLIENT_INFO = { name: 'tether', title: 'tether', version: '1' };

/** The thread, the turn under way (from turn/started: turn/start's answer names the turn before it
 *  can be interrupted, and Codex 0.160 then says "no active turn"), and an abort asked for before
 *  the turn started. */
type Turn = {
  threadId: string | null;
  turnId: string | null;
  interruptWanted: boolean;
  /** The phone's model and effort for the next turns (turn/start carries them), or null: the thread's own. */
  model: string | null;
  effort: Exclude<EffortLevel, 'max'> | null;
};

export async function runCodexHeadless(options: RunnerOptions): Promise<RunnerResult> {
  let turns = null as HeadlessTurns<CodexPrompt> | null;
  const core = createSessionCore({ options, launchKind: 'headless', deskAttached: () => false, matchPrompt: (text) => turns?.matchPrompt(text) ?? null });
  const { log, state } = core;
  let binary: string;
  try {
    binary = core.agent.findBinary({ env: options.env });
  } catch (error) {
    return core.failEarly(error instanceof Error ? error.message : String(error));
  }
  const args = ['app-server', ...appServerArgs(options.userArgs)];
  const proc = spawnHeadless({ core, binary, args, cwd: options.cwd });
  if ('error' in proc) return core.failEarly(proc.error);
  const turn: Turn = { threadId: null, turnId: null, interruptWanted: false, model: null, effort: null };
  const approvals = core.createApprovals({});
  const parts = {} as { server: AppServer; turns: HeadlessTurns<CodexPrompt>; ender: TurnEnder; asking: CodexAsking };
  parts.turns = turns = createHeadlessTurns<CodexPrompt>({
    report: (promptId, status, reason = null) => core.link()?.push('prompt:status', { sessionId: state.id, promptId, status, reason }),
    send: (item) => startTurn({ ...parts, core, turn, prompt: item.content }),
    onTurnSent: () => core.status.publish({ kind: 'turnStarted' }),
  });
  parts.asking = askCodex({ core, approvals, turn, server: () => parts.server });
  parts.server = connectAppServer({
    stdin: proc.stdin,
    stdout: proc.stdout,
    log,
    onRequest: (request) => parts.asking.ask(request),
    onNotification: (method, params) => {
      core.pace.stir();
      followNotification({ ...parts, method, params, core, turn });
    },
  });
  // The phone's End: after the turn in flight (interrupted), Codex's input is closed and it exits.
  parts.ender = createTurnEnder({
    busy: () => parts.turns.busy(),
    interrupt: () => void interrupt({ server: parts.server, turn, log }),
    closeInput: () => parts.server.close(),
    exited: proc.exited,
    force: () => proc.stop(),
    log,
  });
  core.startLink({ onConnected: () => approvals.reconnected(), commands: codexCommands({ ...parts, core, turn, approvals }) });

  const opened = await openThread({ server: parts.server, core, cwd: options.cwd }).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  if (typeof opened === 'string') {
    log(`codex app-server: ${opened}`);
    parts.server.close();
  } else {
    turn.threadId = opened.threadId;
    core.followTranscript({ path: opened.path, continued: core.resumed?.transcriptPath === opened.path });
    core.status.publish({ kind: 'ready' });
    parts.turns.becameReady();
  }
  const { exitCode, signal, stderrLines } = await proc.ended();
  await parts.server.done;
  const failure = parts.turns.ready()
    ? null
    : describeEarlyExit({ agent: 'codex', exitCode, signal, before: 'its thread was open', lines: [...(typeof opened === 'string' ? [opened] : []), ...stderrLines] });
  const result = await core.finish({ exitCode, failure, closePrompts: () => parts.turns.close({ sent: 'the session ended', queued: 'the session ended' }) });
  log(`session ${state.id}: codex app-server exited with ${exitCode}`);
  return result;
}

/** A prompt becomes a turn; a turn Codex refuses gives every held prompt back. */
function startTurn(o: { server: AppServer; turns: HeadlessTurns<CodexPrompt>; core: SessionCore; turn: Turn; prompt: CodexPrompt }): void {
  if (!o.turn.threadId) return;
  // Images as Codex's own `localImage` inputs: it reads each file and sends it to the model as an image.
  const input = [{ type: 'text', text: o.prompt.text, text_elements: [] }, ...o.prompt.images.map((path) => ({ type: 'localImage', path }))];
  o.server.request('turn/start', { threadId: o.turn.threadId, input, ...(o.turn.model ? { model: o.turn.model } : {}), ...(o.turn.effort ? { effort: o.turn.effort } : {}) }).catch((error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    o.core.log(`turn/start: ${why}`);
    o.turns.turnEnded();
    o.turns.close({ sent: `Codex refused the turn: ${why}`, queued: 'the turn before it failed' });
    o.core.status.publish({ kind: 'turnEnded' });
  });
}

/** The user's `-c key=value`, `--enable` and `--disable` reach the app server; the TUI's own
 *  arguments (a prompt, `resume <id>`, `-m`) are this session's thread instead. */
export function appServerArgs(userArgs: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < userArgs.length; i++) {
    const arg = userArgs[i]!;
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!['-c', '--config', '--enable', '--disable'].includes(name)) continue;
    if (arg.includes('=') && name !== arg) out.push(arg);
    else if (userArgs[i + 1] !== undefined) out.push(arg, userArgs[++i]!);
  }
  return out;
}

/** initialize, then the thread: a new one, or the one `resume <id>` names. */
async function openThread(o: { server: AppServer; core: SessionCore; cwd: string }): Promise<{ threadId: string; path: string }> {
  const { server, core } = o;
  const startedAt = Date.now();
  await server.request('initialize', { clientInfo: CLIENT_INFO, capabilities: null });
  server.notify('initialized');
  const { plan } = core;
  const opened = plan.resumeId
    ? await server.request('thread/resume', { threadId: plan.resumeId, cwd: o.cwd })
    : await server.request('thread/start', { cwd: o.cwd, ...(plan.model ? { model: plan.model } : {}) });
  const thread = opened.thread && typeof opened.thread === 'object' ? (opened.thread as Record<string, unknown>) : {};
  if (typeof thread.id !== 'string' || typeof thread.path !== 'string' || thread.path === '') throw new Error('Codex opened a thread without an id or a rollout path');
  const model = typeof opened.model === 'string' ? opened.model : null;
  if (model) core.state.model = model;
  // A new thread's rollout is written with its first turn; before that `codex resume <id>` finds no
  // such session ("No saved session found"), so the hub learns the thread with the rollout's first line.
  if (plan.resumeId) {
    core.state.agentSessionId = thread.id;
    core.patch({ agentSessionId: thread.id, ...(model ? { model } : {}) });
  } else {
    core.nameUnwrittenSession(thread.id);
    if (model) core.patch({ model });
  }
  core.log(`ready in ${Date.now() - startedAt} ms: thread ${thread.id}${plan.resumeId ? ' (resumed)' : ''}`);
  return { threadId: thread.id, path: thread.path };
}

/** Abort: the turn under way is interrupted, at once or as soon as it has started (an abort can
 *  come between turn/start and turn/started). */
async function interrupt(o: { server: AppServer; turn: Turn; log: (line: string) => void }): Promise<void> {
  if (!o.turn.threadId) return;
  if (!o.turn.turnId) {
    o.turn.interruptWanted = true;
    return;
  }
  o.turn.interruptWanted = false;
  o.log(`abort: turn/interrupt ${o.turn.turnId}`);
  await o.server.request('turn/interrupt', { threadId: o.turn.threadId, turnId: o.turn.turnId }).catch((error: unknown) => o.log(`turn/interrupt: ${String(error)}`));
}

function turnKnown(o: { server: AppServer; turn: Turn; turnId: string; log: (line: string) => void }): void {
  if (o.turn.turnId === o.turnId) return;
  o.turn.turnId = o.turnId;
  if (o.turn.interruptWanted) void interrupt(o);
}

/** What Codex tells: the turn under way and its end (the chat itself comes from the rollout). */
function followNotification(o: { method: string; params: Record<string, unknown>; core: SessionCore; server: AppServer; turn: Turn; turns: HeadlessTurns<CodexPrompt>; asking: CodexAsking; ender: TurnEnder }): void {
  const { method, params, core, turn } = o;
  const turnId = params.turn && typeof params.turn === 'object' ? (params.turn as { id?: unknown }).id : undefined;
  if (method === 'turn/started' && typeof turnId === 'string') {
    turnKnown({ server: o.server, turn, turnId, log: core.log });
    core.status.publish({ kind: 'turnStarted' });
  } else if (method === 'turn/completed') {
    turn.turnId = null;
    turn.interruptWanted = false;
    o.turns.turnEnded();
    o.asking.turnEnded();
    if (o.ender.turnEnded()) return;
    core.status.publish({ kind: 'turnEnded' });
    o.turns.pump();
  } else if (method === 'item/started') {
    o.asking.itemStarted(params.item);
  } else if (method === 'thread/started') {
    o.asking.threadStarted(params.thread);
  } else if (method === 'serverRequest/resolved') {
    o.asking.resolved(params.requestId);
  }
}

/** What the hub may ask of a headless Codex session: prompts, abort, end, answers. */
function codexCommands(o: { core: SessionCore; turns: HeadlessTurns<CodexPrompt>; server: AppServer; turn: Turn; approvals: Approvals; ender: TurnEnder }): HubCommandHandlers {
  const { core, turns } = o;
  const { log, state } = core;
  return {
    'prompt:deliver': (delivery) => {
      // Headless: nobody types at a desk, so every prompt and answer is remote (controller).
      core.controller.set('remote');
      if (!turns.claim(delivery.promptId)) return;
      // Files are written under the session's temp dir: images go as Codex's image inputs, other
      // files are named in the text (Codex reads them with its tools).
      core.attachments.forLocalImages(delivery, {
        ready: (prompt) => turns.enqueue({ promptId: delivery.promptId, text: prompt.text, content: prompt }),
        failed: (reason) => core.link()?.push('prompt:status', { sessionId: state.id, promptId: delivery.promptId, status: 'dropped', reason }),
      });
    },
    'session:abort': () => {
      if (!turns.busy()) return;
      void interrupt({ server: o.server, turn: o.turn, log });
      turns.close({ sent: 'aborted', queued: 'queued behind an aborted turn' });
    },
    'session:stop': () => {
      turns.close({ sent: 'the session was ended', queued: 'the session was ended' });
      core.stopAsked('the session was ended');
      o.ender.end();
    },
    'approval:answered': ({ requestId, answer }) => {
      core.controller.set('remote');
      o.approvals.answered({ requestId, answer });
    },
    // The next turn thinks that hard (turn/start takes an effort); Codex's highest is xhigh.
    'session:set-effort': ({ level }) => {
      o.turn.effort = level === 'max' ? 'xhigh' : level;
      core.followEffort(o.turn.effort);
      log(`effort: ${o.turn.effort} from the next turn (the phone's)`);
    },
    // The next turn runs on it (turn/start takes a model); a turn under way keeps its own.
    'session:set-model': ({ model }) => {
      o.turn.model = model;
      state.model = model;
      core.patch({ model });
      core.finishedCommand({ command: '/model', args: model, outcome: 'applied' });
      log(`model: ${model} from the next turn (the phone's)`);
    },
  };
}
