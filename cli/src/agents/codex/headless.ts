// headless.ts: Codex's headless transport (agents/headless-transport.ts): `codex app-server`, JSON-RPC
// on its stdio (app-server.ts), no terminal. The session around it (hub link, approvals, rollout →
// chat, turns, the hub's commands, the end) is runner/headless/, as for every agent.
//
//   initialize ─► thread/start (or thread/resume <id>) = ready: its rollout path is the transcript
//   turn ─► turn/start (text, localImage) ─► turn/started … turn/completed = over
//   Codex's item/commandExecution|fileChange/requestApproval ─► events.ask ─► accept | decline
//   an MCP server's form (mcpServer/elicitation/request) ─► events.elicit ─► its answer (mcp-elicitation.ts)
//   interrupt ─► turn/interrupt          close ─► stdin closed
//   model, effort, mode ─► the next turn/start carries them (mode: Codex's collaboration mode,
//       default or plan; in plan mode Codex may ask request_user_input questions: user-input.ts)
//   joinable (a Codex from remote.ts's JOIN_FROM): the app server listens on a loopback WebSocket
//       with a token instead of stdio; tether is its first client there, Codex's TUI may be the
//       second (`tether codex --join`), and a turn either starts is seen by both
//
// Codex asks over JSON-RPC exactly when its approval policy (the user's config) says a person must,
// so tether's own hooks are not installed here. With no hub to ask, the answer is decline: nobody
// is at a desk to answer instead. Requests tether cannot put to a person yet (extra permissions, a
// question with no options) are answered with an error, which Codex takes as no.
import type { EffortLevel, PermissionMode } from '@tether/shared';
import type { HeadlessContext, HeadlessTransport, HeadlessTurn } from '../headless-transport.ts';
import type { HeadlessPipes } from '../headless-transport.ts';
import { connectAppServer, type AppServer } from './app-server.ts';
import { askCodex, type CodexAsking } from './headless-approvals.ts';
import { codexJoinSupport } from './join-support.ts';
import { openRemote, remoteListener, type RemoteListener } from './remote.ts';

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
  /** Codex's collaboration mode for the next turns; null: the thread's own (default). */
  mode: CollaborationMode | null;
  /** The model the thread opened with: a collaboration mode names one (its settings require it). */
  threadModel: string | null;
};

/** Codex's collaboration modes (app server, experimental) as the phone names them. */
type CollaborationMode = 'default' | 'plan';
const COLLABORATION_MODES: readonly PermissionMode[] = ['default', 'plan'];

export function createCodexHeadless(context: HeadlessContext): HeadlessTransport {
  const { log } = context;
  const turn: Turn = { threadId: null, turnId: null, interruptWanted: false, model: null, effort: null, mode: null, threadModel: null };
  let server = null as AppServer | null;
  /** Why the thread did not open, when it did not: the failure reason's first line. */
  let openFailed: string | null = null;
  const asking: CodexAsking = askCodex({ events: context.events, log, turn, server: () => server! });
  // A Codex that can be joined at the desk listens on 127.0.0.1 with a token, else on stdio.
  const support = codexJoinSupport(context.env);
  const listener: RemoteListener | null = support.supported ? remoteListener() : null;
  if (!support.supported) log(`not joinable at the desk: ${support.reason}`);
  let stop = (): void => {};
  return {
    hooks: false,
    files: 'paths',
    readyIs: 'its thread was open',
    args: () => ['app-server', ...(listener?.args ?? []), ...appServerArgs(context.userArgs)],
    start: async (pipes) => {
      stop = pipes.stop;
      const wire = await protocolPipes({ pipes, listener, log });
      if ('error' in wire) {
        openFailed = wire.error;
        log(`codex app-server: ${wire.error}`);
        return pipes.stop();
      }
      const connected = connectAppServer({
        stdin: wire.stdin,
        stdout: wire.stdout,
        log,
        onRequest: (request) => void asking.ask(request),
        onNotification: (method, params) => {
          context.events.activity();
          followNotification({ context, method, params, server: connected, turn, asking });
        },
      });
      server = connected;
      const opened = await openThread({ server: connected, context }).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (typeof opened === 'string') {
        log(`codex app-server: ${opened}`);
        openFailed = opened;
        connected.close();
      } else {
        turn.threadId = opened.threadId;
        turn.threadModel = opened.model;
        // Started in plan mode (the phone's form, or a resumed plan-mode session): from the first turn.
        if (context.plan().permissionMode === 'plan') turn.mode = 'plan';
        context.events.transcript(opened.path);
        if (listener && 'url' in wire) context.events.joinable({ url: wire.url, token: listener.token, agentSessionId: opened.threadId, transcript: opened.path });
        context.events.ready();
      }
      await connected.done;
      // The socket closed (End, or the app server dropped tether): a server left serving only the
      // desk would keep a session nobody on the hub can reach, so it ends with the socket.
      if (listener) pipes.stop();
    },
    send: (prompt) => startTurn({ server: server!, context, turn, prompt }),
    interrupt: () => void interrupt({ server, turn, log }),
    // On stdio the app server exits once its input ends; on a socket it would go on serving the
    // desk's TUI, so it is stopped (the TUI then says the server went away).
    closeInput: () => {
      server?.close();
      if (listener) stop();
    },
    // The next turn runs on it (turn/start takes a model); a turn under way keeps its own.
    setModel: (model) => {
      turn.model = model;
      log(`model: ${model} from the next turn (the phone's)`);
    },
    // The next turn thinks that hard (turn/start takes an effort); Codex's highest is xhigh.
    setEffort: (level) => {
      turn.effort = level === 'max' ? 'xhigh' : level;
      log(`effort: ${turn.effort} from the next turn (the phone's)`);
      return turn.effort;
    },
    // Codex's collaboration mode for the next turn: default or plan (Codex's Shift+Tab at its TUI).
    // Its other modes of asking (approval policy, sandbox) are the user's config, not switched here.
    setMode: async (mode) => {
      if (!COLLABORATION_MODES.includes(mode)) return { ok: false, reason: `Codex has no ${mode} mode here: default or plan` };
      turn.mode = mode as CollaborationMode;
      log(`mode: ${mode} from the next turn (the phone's)`);
      return { ok: true };
    },
    failureLines: () => (openFailed ? [openFailed] : []),
  };
}

/** What the JSON-RPC connection speaks through: the process's stdio, or its loopback socket once it
 *  says where it listens (its stdout then carries nothing and is drained). */
async function protocolPipes(o: { pipes: HeadlessPipes; listener: RemoteListener | null; log: (line: string) => void }): Promise<Pick<HeadlessPipes, 'stdin' | 'stdout'> | (Pick<HeadlessPipes, 'stdin' | 'stdout'> & { url: string }) | { error: string }> {
  if (!o.listener) return o.pipes;
  return openRemote({ pipes: o.pipes, token: o.listener.token, log: o.log });
}

/** A prompt becomes a turn; a turn Codex refuses gives every held prompt back. */
function startTurn(o: { server: AppServer; context: HeadlessContext; turn: Turn; prompt: HeadlessTurn }): void {
  if (!o.turn.threadId) return;
  // Images as Codex's own `localImage` inputs: it reads each file and sends it to the model as an image.
  const input = [{ type: 'text', text: o.prompt.text, text_elements: [] }, ...o.prompt.images.map((path) => ({ type: 'localImage', path }))];
  o.server.request('turn/start', { threadId: o.turn.threadId, input, ...(o.turn.model ? { model: o.turn.model } : {}), ...(o.turn.effort ? { effort: o.turn.effort } : {}), ...collaboration(o.turn) }).catch((error: unknown) => {
    const why = error instanceof Error ? error.message : String(error);
    o.context.log(`turn/start: ${why}`);
    o.context.events.turnRefused(`Codex refused the turn: ${why}`);
  });
}

/** turn/start's collaborationMode (experimental): it takes precedence over the turn's model and
 *  effort, so it carries them; null instructions are the mode's built-in ones. */
function collaboration(turn: Turn): { collaborationMode?: unknown } {
  const model = turn.model ?? turn.threadModel;
  if (!turn.mode || !model) return {};
  return { collaborationMode: { mode: turn.mode, settings: { model, reasoning_effort: turn.effort, developer_instructions: null } } };
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
async function openThread(o: { server: AppServer; context: HeadlessContext }): Promise<{ threadId: string; path: string; model: string | null }> {
  const { server, context } = o;
  const startedAt = Date.now();
  // The experimental API: turn/start's collaborationMode (plan mode) is one of its fields.
  await server.request('initialize', { clientInfo: CLIENT_INFO, capabilities: { experimentalApi: true } });
  server.notify('initialized');
  const plan = context.plan();
  const opened = plan.resumeId
    ? await server.request('thread/resume', { threadId: plan.resumeId, cwd: context.cwd })
    : await server.request('thread/start', { cwd: context.cwd, ...(plan.model ? { model: plan.model } : {}) });
  const thread = opened.thread && typeof opened.thread === 'object' ? (opened.thread as Record<string, unknown>) : {};
  if (typeof thread.id !== 'string' || typeof thread.path !== 'string' || thread.path === '') throw new Error('Codex opened a thread without an id or a rollout path');
  const model = typeof opened.model === 'string' ? opened.model : null;
  // A new thread's rollout is written with its first turn; before that `codex resume <id>` finds no
  // such session ("No saved session found"), so the hub learns the thread with the rollout's first line.
  context.events.session({ id: thread.id, written: plan.resumeId !== null, model });
  context.log(`ready in ${Date.now() - startedAt} ms: thread ${thread.id}${plan.resumeId ? ' (resumed)' : ''}`);
  return { threadId: thread.id, path: thread.path, model };
}

/** Abort: the turn under way is interrupted, at once or as soon as it has started (an abort can
 *  come between turn/start and turn/started). */
async function interrupt(o: { server: AppServer | null; turn: Turn; log: (line: string) => void }): Promise<void> {
  if (!o.server || !o.turn.threadId) return;
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
function followNotification(o: { context: HeadlessContext; method: string; params: Record<string, unknown>; server: AppServer; turn: Turn; asking: CodexAsking }): void {
  const { method, params, context, turn } = o;
  const turnId = params.turn && typeof params.turn === 'object' ? (params.turn as { id?: unknown }).id : undefined;
  if (method === 'turn/started' && typeof turnId === 'string') {
    turnKnown({ server: o.server, turn, turnId, log: context.log });
    context.events.turnStarted();
  } else if (method === 'turn/completed') {
    turn.turnId = null;
    turn.interruptWanted = false;
    o.asking.turnEnded();
    context.events.turnEnded();
  } else if (method === 'item/started') {
    o.asking.itemStarted(params.item);
  } else if (method === 'item/completed') {
    o.asking.itemCompleted(params.item);
  } else if (method === 'thread/started') {
    o.asking.threadStarted(params.thread);
  } else if (method === 'serverRequest/resolved') {
    context.events.withdraw(String(params.requestId));
  }
}
