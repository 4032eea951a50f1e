// headless.ts: claude's headless transport (agents/headless-transport.ts): `claude -p` with
// stream-json on stdin and stdout, no terminal. The session around it (hub link, hooks, approvals,
// transcript → chat, turns, the hub's commands, the end) is runner/headless/, as for every agent.
//
//   turn ─► stdin {"type":"user",…} ─► claude -p
//   claude stdout: control_response(initialize) = ready · system init = claude session id · result = turn over
//   claude control_request can_use_tool ─► events.ask (a person, through the runner) ─► control_response
//
// Ready = claude answered the stream-json `initialize` control request (it prints nothing else before
// the first prompt). Abort = the stream-json `interrupt` control request: SIGINT makes `claude -p` exit
// (rc 0) instead of ending the turn. End = claude's input closed. Its stdin is headless-input.ts, its
// stdout headless-output.ts. The transcript path and MCP forms come through tether's hooks.
import type { HeadlessContext, HeadlessTransport } from '../headless-transport.ts';
import { createHeadlessInput, type HeadlessInput } from './headless-input.ts';
import { forEachLine } from '../lines.ts';
import { readHeadlessLine } from './headless-output.ts';
import { slashCommandsFromInitialize } from './slash-commands.ts';

export function createClaudeHeadless(context: HeadlessContext): HeadlessTransport {
  const { log } = context;
  const input = createHeadlessInput({ log });
  return {
    hooks: true,
    files: 'blocks',
    readyIs: 'it was ready',
    args: (plan) => ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio', ...plan.args],
    start: (pipes) => {
      input.attach(pipes.stdin);
      return followStdout({ context, input, stdout: pipes.stdout }).catch((error: unknown) => log(`claude stdout: ${String(error)}`));
    },
    canSend: input.open,
    send: (turn) => input.writeLine({ type: 'user', message: { role: 'user', content: turn.content } }),
    interrupt: () => void input.control({ subtype: 'interrupt' }),
    closeInput: () => input.closeInput(),
    // The Agent SDK's own control requests.
    setModel: (model) => void input.control({ subtype: 'set_model', model }),
    setMode: (mode) => new Promise((resolve) => input.control({ subtype: 'set_permission_mode', mode }, (ok, error) => resolve(ok ? { ok: true } : { ok: false, reason: error ?? 'refused' }))),
  };
}

/** claude asks over stream-json (`--permission-prompt-tool stdio`) exactly when it would ask a
 *  person: its mode and the user's rules decide. Headless there is no desk, so when the hub cannot
 *  take the question, the answer is no (plain `claude -p` denies too). */
async function canUseTool(o: { context: HeadlessContext; input: HeadlessInput; requestId: string; request: Record<string, unknown> }): Promise<void> {
  const { request } = o;
  const toolName = typeof request.tool_name === 'string' ? request.tool_name : '';
  const toolInput = request.input && typeof request.input === 'object' && !Array.isArray(request.input) ? (request.input as Record<string, unknown>) : {};
  const verdict = await o.context.events.ask({ id: o.requestId, toolName, toolInput, toolUseId: typeof request.tool_use_id === 'string' ? request.tool_use_id : null });
  if (verdict === 'withdrawn') return;
  const response = !verdict
    ? { behavior: 'deny', message: 'tether: nobody could be asked (the hub did not take the request)' }
    : verdict.behavior === 'allow'
      ? { ...verdict, updatedInput: verdict.updatedInput ?? toolInput }
      : verdict;
  o.input.writeLine({ type: 'control_response', response: { subtype: 'success', request_id: o.requestId, response } });
}

/** claude's stdout, line by line: ready at its `initialize` answer, its session id, turns' ends. */
function followStdout(o: { context: HeadlessContext; input: HeadlessInput; stdout: ReadableStream<Uint8Array> }): Promise<void> {
  const { context, input } = o;
  const { log, events } = context;
  const initId = input.control({ subtype: 'initialize' });
  const startedAt = Date.now();
  let ready = false;
  return forEachLine(o.stdout, (line) => {
    events.activity();
    readHeadlessLine(line, {
      log,
      canUseTool: (requestId, request) => void canUseTool({ context, input, requestId, request }),
      // claude's control_cancel_request: it stopped waiting.
      cancel: (requestId) => events.withdraw(requestId),
      answered: (requestId, ok, error, response) => {
        input.answered(requestId, ok, error);
        if (requestId !== initId || ready) return;
        if (!ok) return log(`initialize failed: ${error ?? 'unknown'}`);
        ready = true;
        log(`ready in ${Date.now() - startedAt} ms`);
        // claude lists the slash commands it takes (built-ins, the project's and user's, plugins').
        events.ready({ slashCommands: slashCommandsFromInitialize(response?.commands) });
      },
      sessionId: (id) => events.session({ id, written: false }),
      turnEnded: () => events.turnEnded(),
    });
  });
}
