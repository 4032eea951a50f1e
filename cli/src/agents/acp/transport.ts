// transport.ts: the headless transport (agents/headless-transport.ts) for any agent that speaks the
// Agent Client Protocol on its stdio (Gemini CLI's `gemini --acp`). The agent's room brings only its
// command line and where its transcript is (AcpAgent); the session around it is runner/headless/.
//
//   initialize ─► session/new (or session/load <resume id>) = ready: its id, model and transcript
//   turn ─► session/prompt (text, images, files) … its answer (stopReason) = the turn is over
//   session/request_permission ─► events.ask ─► the option the agent offered (permission.ts)
//   interrupt ─► session/cancel, and every permission still asked is answered `cancelled`
//   close ─► stdin closed: the agent exits when it has read it
//
// The chat comes from the agent's own transcript (as for claude and Codex), and session/update is
// only activity; an agent whose transcript tether cannot read (AcpAgent.chat 'log': opencode's is in
// SQLite) has its session/update written to tether's chat log (chat-log.ts), which is followed instead.
// An agent that takes its model and mode over ACP only (AcpAgent.modes, opencode) gets the plan's
// after the session opens (session/set_model, session/set_mode) and the phone's later. A deny's reason cannot ride on ACP's outcome, so it is said to the model as a prompt of
// its own once the agent's turn is over, inside the same turn for the runner. Requests tether does
// not take (fs/*, terminal/*: not offered at initialize) are answered "method not found".
import { join } from 'node:path';
import type { PermissionMode } from '@tether/shared';
import type { HeadlessContext, HeadlessTransport, HeadlessTurn } from '../headless-transport.ts';
import type { LaunchPlan } from '../launch-plan.ts';
import { connectAcp, METHOD_NOT_FOUND, type AcpConnection, type AcpRequest } from './connection.ts';
import { createCallInputs, permissionOptions, permissionOutcome, permissionQuestion } from './permission.ts';
import { acpPrompt, type PromptCapabilities } from './prompt.ts';
import { createChatLog, type ChatLog } from './chat-log.ts';

type Json = Record<string, unknown>;

/** The protocol version this client speaks (ACP's integer version). */
export const ACP_PROTOCOL_VERSION = 1;
const CLIENT_INFO = { name: 'tether', title: 'tether', version: '1' };

/** What an ACP agent's room tells the transport. */
export type AcpAgent = {
  /** Its name in log lines and reasons ("gemini"). */
  name: string;
  /** Its command line for ACP: the flag that starts it (`--acp`) and what of the user's plan it takes. */
  args(plan: LaunchPlan): string[];
  /** The file its session `sessionId` is written to, once it exists (null: not yet, or none). */
  transcript?(o: { sessionId: string; env: Record<string, string> }): string | null;
  /** Runs before session/load, for an agent that must be waited for first (Gemini: minute.ts). */
  beforeLoad?(o: { sessionId: string; env: Record<string, string>; log: (line: string) => void }): Promise<void>;
  /** 'log': it writes no transcript tether reads; its session/update goes to tether's chat log. */
  chat?: 'log';
  /** Its ACP session modes (session/set_mode) for the permission modes it has: the plan's mode and
   *  model are then set over ACP once the session is open, not on its command line. */
  modes?: Partial<Record<PermissionMode, string>>;
  /** Its own words for a call it asks about, where they say more than ACP's (opencode's edit: its
   *  unified diff); null: the agent-neutral reading (permission.ts). */
  question?(toolCall: Record<string, unknown>): { toolName: string; toolInput: Record<string, unknown> } | null;
};

type State = {
  sessionId: string | null;
  can: PromptCapabilities;
  /** A turn under way, and whether it was cancelled (its reasons then go unsaid). */
  turn: { cancelled: boolean; tell: string[] } | null;
  /** Permission requests not answered yet. */
  asked: Set<number | string>;
  transcript: string | null;
  /** tether's chat log (AcpAgent.chat 'log'), and whether it records (not during session/load's replay). */
  chatLog: ChatLog | null;
  recording: boolean;
  /** What each tool call under way was announced with (a permission may say less). */
  calls: ReturnType<typeof createCallInputs>;
};

export function createAcpTransport(context: HeadlessContext, agent: AcpAgent): HeadlessTransport {
  const { log } = context;
  const state: State = { sessionId: null, can: { image: false, embeddedContext: false }, turn: null, asked: new Set(), transcript: null, chatLog: null, recording: false, calls: createCallInputs() };
  let conn = null as AcpConnection | null;
  let openFailed: string | null = null;
  const findTranscript = () => {
    state.chatLog?.flush();
    if (state.transcript || !state.sessionId) return;
    if (agent.chat === 'log') {
      state.chatLog ??= createChatLog({ dir: join(context.stateDir, 'acp-chat'), agent: agent.name, sessionId: state.sessionId });
      state.recording = true;
      // Named to the runner with its first line (recordPrompt): the hub hears of the session id then.
      return;
    }
    if (!agent.transcript) return;
    const path = agent.transcript({ sessionId: state.sessionId, env: context.env });
    if (!path) return;
    state.transcript = path;
    context.events.transcript(path);
  };
  return {
    hooks: false,
    files: 'blocks',
    readyIs: 'its ACP session was open',
    args: (plan) => agent.args(plan),
    start: async (pipes) => {
      const connected = connectAcp({
        name: agent.name,
        stdin: pipes.stdin,
        stdout: pipes.stdout,
        log,
        onRequest: (request) => void answerRequest({ context, conn: connected, state, request, agent }).catch((error: unknown) => log(`${agent.name} acp: answering ${request.method}: ${String(error)}`)),
        onNotification: (method, params) => {
          context.events.activity();
          if (method !== 'session/update') return log(`${agent.name} acp: notification ${method} not followed`);
          if (params.sessionId !== state.sessionId) return;
          state.calls.update(params.update);
          if (state.recording) state.chatLog?.update(params.update);
        },
      });
      conn = connected;
      try {
        await openSession({ context, conn: connected, state, agent });
        findTranscript();
        if (agent.modes) await applyPlan({ context, conn: connected, state, agent });
        context.events.ready();
      } catch (error) {
        openFailed = error instanceof Error ? error.message : String(error);
        log(`${agent.name} acp: ${openFailed}`);
        connected.close();
      }
      await connected.done;
    },
    send: (turn) => {
      if (!conn || !state.sessionId) return;
      state.turn = { cancelled: false, tell: [] };
      context.events.turnStarted();
      recordPrompt({ context, state, text: turn.text });
      runTurn({ context, conn, state, name: agent.name, prompt: promptOf(turn, state.can), onEnd: findTranscript });
    },
    interrupt: () => {
      if (!conn || !state.sessionId || !state.turn) return;
      state.turn.cancelled = true;
      log(`abort: session/cancel ${state.sessionId}`);
      conn.notify('session/cancel', { sessionId: state.sessionId });
      // ACP: the client answers every permission still asked with `cancelled` once it cancels.
      for (const id of state.asked) {
        conn.respond(id, { outcome: { outcome: 'cancelled' } });
        context.events.withdraw(String(id));
      }
      state.asked.clear();
    },
    closeInput: () => conn?.close(),
    setModel: (model) => {
      if (!conn || !state.sessionId) return;
      // ACP's session/set_model (Gemini takes it; an agent that does not says "method not found").
      conn
        .request('session/set_model', { sessionId: state.sessionId, modelId: model })
        .then(() => log(`model: ${model} (the phone's)`))
        .catch((error: unknown) => log(`session/set_model: ${String(error)}`));
    },
    ...(agent.modes ? { setMode: (mode: PermissionMode) => setAcpMode({ conn, state, modes: agent.modes!, mode }) } : {}),
    failureLines: () => (openFailed ? [openFailed] : []),
  };
}

/** A prompt into the chat log; the log is named to the runner with its first line. */
function recordPrompt(o: { context: HeadlessContext; state: State; text: string }): void {
  const { chatLog } = o.state;
  if (!chatLog || !o.state.recording) return;
  chatLog.prompt(o.text);
  if (o.state.transcript) return;
  o.state.transcript = chatLog.path;
  o.context.events.transcript(chatLog.path);
}

/** session/set_mode with the agent's mode for `mode`; the agent's answer decides. */
async function setAcpMode(o: { conn: AcpConnection | null; state: State; modes: Partial<Record<PermissionMode, string>>; mode: PermissionMode }): Promise<{ ok: true } | { ok: false; reason: string }> {
  const modeId = o.modes[o.mode];
  if (!modeId) return { ok: false, reason: `no mode of the agent's is ${o.mode}` };
  if (!o.conn || !o.state.sessionId) return { ok: false, reason: 'its session is not open' };
  try {
    await o.conn.request('session/set_mode', { sessionId: o.state.sessionId, modeId });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `session/set_mode: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The plan's model and mode, over ACP (an agent whose command line takes neither). */
async function applyPlan(o: { context: HeadlessContext; conn: AcpConnection; state: State; agent: AcpAgent }): Promise<void> {
  const plan = o.context.plan();
  if (plan.model) {
    await o.conn.request('session/set_model', { sessionId: o.state.sessionId, modelId: plan.model });
    o.context.events.session({ id: o.state.sessionId!, written: plan.resumeId !== null, model: plan.model });
  }
  if (plan.permissionMode !== 'default') {
    const set = await setAcpMode({ conn: o.conn, state: o.state, modes: o.agent.modes ?? {}, mode: plan.permissionMode });
    if (!set.ok) throw new Error(`${o.agent.name} cannot start in ${plan.permissionMode}: ${set.reason}`);
  }
}

const promptOf = (turn: HeadlessTurn, can: PromptCapabilities) => acpPrompt(turn.content, can);

/** initialize, then the session: a new one, or the one the plan resumes (session/load). */
async function openSession(o: { context: HeadlessContext; conn: AcpConnection; state: State; agent: AcpAgent }): Promise<void> {
  const { context, conn, state, agent } = o;
  const { name } = agent;
  const startedAt = Date.now();
  const init = await conn.request('initialize', {
    protocolVersion: ACP_PROTOCOL_VERSION,
    // No file system or terminal of tether's: the agent uses its own.
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: CLIENT_INFO,
  });
  if (init.protocolVersion !== ACP_PROTOCOL_VERSION) throw new Error(`${name} speaks ACP version ${JSON.stringify(init.protocolVersion)}; tether speaks ${ACP_PROTOCOL_VERSION}`);
  const caps = (init.agentCapabilities && typeof init.agentCapabilities === 'object' ? init.agentCapabilities : {}) as Json;
  const prompt = (caps.promptCapabilities && typeof caps.promptCapabilities === 'object' ? caps.promptCapabilities : {}) as Json;
  state.can = { image: prompt.image === true, embeddedContext: prompt.embeddedContext === true };
  const plan = context.plan();
  if (plan.continue) throw new Error(`resuming ${name}'s latest session is not taken headless: name the session to resume`);
  let opened: Json;
  if (plan.resumeId) {
    if (caps.loadSession !== true) throw new Error(`${name} cannot load a session over ACP (agentCapabilities.loadSession)`);
    await agent.beforeLoad?.({ sessionId: plan.resumeId, env: context.env, log: context.log });
    // session/load replays the conversation as session/update notifications: only activity here.
    opened = await conn.request('session/load', { sessionId: plan.resumeId, cwd: context.cwd, mcpServers: [] });
    state.sessionId = plan.resumeId;
  } else {
    opened = await conn.request('session/new', { cwd: context.cwd, mcpServers: [] });
    if (typeof opened.sessionId !== 'string' || opened.sessionId === '') throw new Error(`${name} opened a session without an id`);
    state.sessionId = opened.sessionId;
  }
  const model = currentModel(opened);
  context.events.session({ id: state.sessionId, written: plan.resumeId !== null, model });
  context.log(`ready in ${Date.now() - startedAt} ms: ${name} session ${state.sessionId}${plan.resumeId ? ' (loaded)' : ''}`);
}

/** The model a session opened with: ACP's `models.currentModelId`, or its `model` config option. */
function currentModel(opened: Json): string | null {
  const models = (opened.models && typeof opened.models === 'object' ? opened.models : {}) as Json;
  if (typeof models.currentModelId === 'string') return models.currentModelId;
  const options = Array.isArray(opened.configOptions) ? (opened.configOptions as Json[]) : [];
  const option = options.find((o) => o && typeof o === 'object' && o.category === 'model' && typeof o.currentValue === 'string');
  return option ? (option.currentValue as string) : null;
}

/** One session/prompt; a deny's reasons follow as prompts of their own before the turn is over. */
function runTurn(o: { context: HeadlessContext; conn: AcpConnection; state: State; name: string; prompt: Json[]; onEnd: () => void }): void {
  const { context, conn, state } = o;
  const sessionId = state.sessionId!;
  conn
    .request('session/prompt', { sessionId, prompt: o.prompt })
    .then((result) => {
      if (state.recording) state.chatLog?.usage(result.usage);
      const turn = state.turn;
      const tell = turn && !turn.cancelled && result.stopReason !== 'cancelled' ? turn.tell.splice(0) : [];
      if (tell.length > 0) {
        context.log(`${o.name}: the person's reason for a refusal, said to the model`);
        return runTurn({ ...o, prompt: [{ type: 'text', text: tell.join('\n\n') }] });
      }
      if (typeof result.stopReason === 'string' && result.stopReason !== 'end_turn') context.log(`${o.name} turn over: ${result.stopReason}`);
      state.turn = null;
      o.onEnd();
      context.events.turnEnded();
    })
    .catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      context.log(`session/prompt: ${why}`);
      state.turn = null;
      o.onEnd();
      context.events.turnRefused(`${o.name} refused the turn: ${why}`);
    });
}

/** What the agent asks: a permission goes to a person; the rest is not taken. */
async function answerRequest(o: { context: HeadlessContext; conn: AcpConnection; state: State; request: AcpRequest; agent: AcpAgent }): Promise<void> {
  const { context, conn, state, request } = o;
  context.events.activity();
  if (request.method !== 'session/request_permission') {
    context.log(`acp: the agent asked ${request.method}; not taken (answered "method not found")`);
    return conn.fail(request.id, { code: METHOD_NOT_FOUND, message: `tether does not take ${request.method}` });
  }
  const options = permissionOptions(request.params.options);
  const call = state.calls.fill(request.params.toolCall);
  const own = call && typeof call === 'object' ? o.agent.question?.(call as Record<string, unknown>) : null;
  const question = { ...permissionQuestion(call), ...own };
  state.asked.add(request.id);
  const verdict = await context.events.ask({ id: String(request.id), ...question });
  // Answered already (an interrupt said `cancelled`), or the agent stopped waiting.
  if (!state.asked.delete(request.id)) return;
  if (verdict === 'withdrawn') return conn.respond(request.id, { outcome: { outcome: 'cancelled' } });
  if (!verdict) context.log(`approval for ${question.toolName}: nobody could be asked (the hub did not take it); refused`);
  const { outcome, tell } = permissionOutcome(options, verdict);
  if (tell && state.turn) state.turn.tell.push(`The person refused ${question.toolName}: ${tell}`);
  conn.respond(request.id, { outcome });
}
