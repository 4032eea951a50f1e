// headless-approvals.ts: what headless Codex asks a person over JSON-RPC, put to the phone through
// the runner (events.ask: the session's approvals), and the answer sent back as Codex's decision.
//
//   item/commandExecution/requestApproval ─► approvals.ask(Bash {command, description}) ─► decision
//     with networkApprovalContext (a host its network proxy holds) ─► the same Bash question: the
//     command running (if one), `network-access <protocol>://<host>:<port>` (network-access.ts)
//   item/fileChange/requestApproval       ─► approvals.ask(FileChanges {changes})        ─► decision
//                                            (the files and diffs of the item it names: file-changes.ts)
//   item/tool/requestUserInput            ─► approvals.ask(AskUserQuestion {questions})  ─► answers by id
//   mcpServer/elicitation/request         ─► an MCP server's form: events.elicit (kind elicitation) ─► {action, content}
//                                            Codex's approval of an MCP tool call: approvals.ask(mcp__<server>__<tool>)
//                                            ─► accept | decline (mcp-elicitation.ts)
//   a request from a thread not the session's own ─► asked by that sub-agent (sub-agents.ts)
//   serverRequest/resolved (Codex stopped waiting, e.g. the turn was interrupted) ─► events.withdraw
//
// allow → accept (a rule for the session → acceptForSession); deny → decline, and its reason is
// steered into the turn so the model reads it (Codex's decline carries no message); an edited
// call → decline with why (Codex takes no edited command); nobody to ask → decline (fail closed).
import type { HeadlessEvents } from '../headless-transport.ts';
import type { Verdict } from '../verdict.ts';
import type { AppServer, AppServerRequest } from './app-server.ts';
import { fileChangesQuestion, fromFileUpdateChanges } from './file-changes.ts';
import { mcpElicitationResponse, mcpToolName, readMcpElicitation } from './mcp-elicitation.ts';
import { networkQuestion, readNetworkContext, runningCommands } from './network-access.ts';
import { createThreadNames } from './sub-agents.ts';
import { userInputAnswers, userInputQuestion } from './user-input.ts';

type Json = Record<string, unknown>;

/** JSON-RPC's "method not found": Codex takes it as no. */
const NOT_HANDLED = -32601;
const EDITED = 'The person edited this call before allowing it, and Codex cannot run an edited call: ask again with the call as they want it.';

export type CodexAsking = ReturnType<typeof askCodex>;

export function askCodex(o: { events: HeadlessEvents; log: (line: string) => void; turn: { threadId: string | null; turnId: string | null }; server: () => AppServer }) {
  /** File changes Codex announced (item/started), for the question about them. */
  const changes = new Map<string, unknown>();
  /** MCP tool calls under way (item/started), by item id: the tool a 0.160.0 approval does not name. */
  const mcpCalls = new Map<string, { server: string; tool: string }>();
  /** Commands running: the one a network approval is for (network-access.ts). */
  const running = runningCommands();
  const threads = createThreadNames({ read: (threadId) => o.server().request('thread/read', { threadId }) });
  const question = (request: AppServerRequest): { toolName: string; toolInput: Json } | null => {
    const p = request.params;
    const reason = typeof p.reason === 'string' && p.reason !== '' ? { description: p.reason } : {};
    if (request.method === 'item/commandExecution/requestApproval') {
      const network = readNetworkContext(p);
      if (network) return networkQuestion({ context: network, runningCommand: running.sole()?.command ?? null, reason: reason.description ?? null });
      return { toolName: 'Bash', toolInput: { command: modelCommand(p) ?? (typeof p.command === 'string' ? p.command : ''), ...reason } };
    }
    if (request.method === 'item/fileChange/requestApproval') {
      const item = typeof p.itemId === 'string' ? changes.get(p.itemId) : undefined;
      return fileChangesQuestion(fromFileUpdateChanges(item), typeof p.reason === 'string' ? p.reason : null);
    }
    return null;
  };
  /** The reason, as input the turn takes in: settled once Codex has it (or refused it). */
  const steer = async (text: string): Promise<void> => {
    const { threadId, turnId } = o.turn;
    if (!threadId || !turnId) return;
    await o
      .server()
      .request('turn/steer', { threadId, expectedTurnId: turnId, input: [{ type: 'text', text, text_elements: [] }] })
      .catch((error: unknown) => o.log(`turn/steer: ${String(error)}`));
  };
  /** request_user_input: a question on the phone; its picks go back by question id. */
  const askUserInput = async (request: AppServerRequest): Promise<void> => {
    const asked = userInputQuestion(request.params);
    if (!asked.ok) {
      o.log(`codex asked for input: ${asked.why}; answered no`);
      return o.server().fail(request.id, { code: NOT_HANDLED, message: asked.why });
    }
    const askedBy = await threads.asker({ threadId: request.params.threadId, mainThreadId: o.turn.threadId });
    const toolUseId = typeof request.params.itemId === 'string' ? request.params.itemId : null;
    const verdict = await o.events.ask({ id: String(request.id), toolName: asked.toolName, toolInput: asked.toolInput, toolUseId, askedBy });
    if (verdict === 'withdrawn') return;
    const answers = userInputAnswers(asked.params, verdict);
    if (!answers) return o.server().fail(request.id, { code: NOT_HANDLED, message: verdict && verdict.behavior === 'deny' ? verdict.message : 'nobody answered' });
    o.server().respond(request.id, answers);
  };
  /** An MCP server's form goes to the phone as a form; Codex's approval of an MCP tool call as a
   *  permission for that tool. Nobody to answer: declined. */
  const askMcp = async (request: AppServerRequest): Promise<void> => {
    const asked = readMcpElicitation(request.params);
    if (asked.kind === 'unsupported') {
      o.log(`codex relayed an MCP elicitation tether cannot show: ${asked.why}; declined`);
      return o.server().respond(request.id, mcpElicitationResponse(null));
    }
    if (asked.kind === 'form') {
      const answer = await o.events.elicit({ id: String(request.id), input: asked.input });
      if (answer === 'withdrawn') return;
      if (!answer) o.log(`MCP form from ${asked.input.serverName}: nobody answered it on the hub; declined`);
      return o.server().respond(request.id, mcpElicitationResponse(answer));
    }
    const call = [...mcpCalls.entries()].reverse().find(([, c]) => c.server === asked.server && (asked.tool === null || c.tool === asked.tool));
    const tool = asked.tool ?? call?.[1].tool;
    if (!tool) {
      o.log(`codex asked to run a tool of MCP server ${asked.server} it did not name; declined`);
      return o.server().respond(request.id, mcpElicitationResponse(null));
    }
    const askedBy = await threads.asker({ threadId: request.params.threadId, mainThreadId: o.turn.threadId });
    const verdict = await o.events.ask({ id: String(request.id), toolName: mcpToolName(asked.server, tool), toolInput: asked.toolInput, toolUseId: call?.[0] ?? null, askedBy });
    if (verdict === 'withdrawn') return;
    const { decision, tell } = decide(verdict);
    if (tell) await steer(tell);
    o.server().respond(request.id, mcpElicitationResponse(decision === 'decline' ? null : { action: 'accept', content: {} }));
  };
  return {
    async ask(request: AppServerRequest): Promise<void> {
      if (request.method === 'item/tool/requestUserInput') return askUserInput(request);
      if (request.method === 'mcpServer/elicitation/request') return askMcp(request);
      if (readNetworkContext(request.params)) await running.announced();
      const asked = question(request);
      if (!asked) {
        o.log(`codex asked ${request.method}: tether cannot put it to a person yet; answered no`);
        return o.server().fail(request.id, { code: NOT_HANDLED, message: `tether cannot answer ${request.method}` });
      }
      // A network approval's itemId is Codex's own (`network#…`, as long as the host): its call is the command running.
      const toolUseId = readNetworkContext(request.params) ? (running.sole()?.id ?? null) : typeof request.params.itemId === 'string' ? request.params.itemId : null;
      const askedBy = await threads.asker({ threadId: request.params.threadId, mainThreadId: o.turn.threadId });
      const verdict = await o.events.ask({ id: String(request.id), ...asked, toolUseId, askedBy });
      if (verdict === 'withdrawn') return;
      if (!verdict) o.log(`approval for ${asked.toolName}: nobody could be asked (the hub did not take it); declined`);
      const { decision, tell } = decide(verdict);
      // The reason first: Codex sends the decline to the model at once, and a reason steered in
      // after it could miss that request and the turn (a run under load saw the turn end without it).
      if (tell) await steer(tell);
      o.server().respond(request.id, { decision });
    },
    /** An item began: a file change keeps its paths and diffs for the question that may follow. */
    itemStarted(item: unknown) {
      if (!item || typeof item !== 'object') return;
      const it = item as Json;
      if (it.type === 'fileChange' && typeof it.id === 'string') changes.set(it.id, it.changes);
      if (it.type === 'commandExecution' && typeof it.id === 'string') running.started({ id: it.id, command: modelCommand(it) ?? (typeof it.command === 'string' ? it.command : null) });
      if (it.type === 'mcpToolCall' && typeof it.id === 'string' && typeof it.server === 'string' && typeof it.tool === 'string') mcpCalls.set(it.id, { server: it.server, tool: it.tool });
    },
    /** An item ended: a command that ran is no longer the one a network approval can be about. */
    itemCompleted(item: unknown) {
      if (item && typeof item === 'object' && typeof (item as Json).id === 'string') running.completed((item as Json).id as string);
    },
    turnEnded() {
      running.clear();
      changes.clear();
      mcpCalls.clear();
    },
    /** A thread began (the session's own or a sub-agent's): its names, for the requests it makes. */
    threadStarted(thread: unknown) {
      threads.started(thread);
    },
  };
}

/** The command as the model wrote it (Codex wraps it in `bash -lc '…'`): its one parsed action's. */
function modelCommand(p: Json): string | null {
  const actions = Array.isArray(p.commandActions) ? (p.commandActions as Json[]) : [];
  return actions.length === 1 && typeof actions[0]?.command === 'string' ? actions[0].command : null;
}

/** Codex's decision for a verdict, and what the turn is told with it (Codex's decline carries no message). */
function decide(verdict: Verdict | null): { decision: string; tell: string | null } {
  if (!verdict) return { decision: 'decline', tell: null };
  if (verdict.behavior === 'deny') return { decision: 'decline', tell: verdict.message };
  if (verdict.updatedInput) return { decision: 'decline', tell: EDITED };
  return { decision: verdict.updatedPermissions?.length ? 'acceptForSession' : 'accept', tell: null };
}
