// headless-output.ts: what `claude -p --output-format stream-json` says on its stdout, one JSON line
// each: control requests (can_use_tool: a permission to ask about), their cancellation, control
// responses (initialize = ready, with the slash commands it takes), its session id (system init),
// and `result` (the turn is over). Other lines (assistant text, tool calls) reach the chat through
// the transcript, as in a PTY session.
export type HeadlessOutput = {
  canUseTool(requestId: string, request: Record<string, unknown>): void;
  cancel(requestId: string): void;
  answered(requestId: string, ok: boolean, error: string | undefined, response: { commands?: unknown } | undefined): void;
  sessionId(id: string): void;
  turnEnded(): void;
};

export function readHeadlessLine(line: string, o: HeadlessOutput & { log: (line: string) => void }): void {
  let msg: Record<string, unknown>;
  try {
    msg = JSON.parse(line) as Record<string, unknown>;
  } catch {
    o.log(`claude stdout (not JSON): ${line.slice(0, 200)}`);
    return;
  }
  if (msg.type === 'control_request') {
    const request = msg.request as Record<string, unknown> | undefined;
    if (typeof msg.request_id === 'string' && request?.subtype === 'can_use_tool') o.canUseTool(msg.request_id, request);
    else o.log(`claude control request not handled: ${String(request?.subtype)}`);
  } else if (msg.type === 'control_cancel_request') {
    if (typeof msg.request_id === 'string') o.cancel(msg.request_id);
  } else if (msg.type === 'control_response') {
    const response = msg.response as { request_id?: string; subtype?: string; error?: string; response?: { commands?: unknown } } | undefined;
    if (response?.request_id) o.answered(response.request_id, response.subtype === 'success', response.error, response.response);
  } else if (msg.type === 'system' && msg.subtype === 'init') {
    if (typeof msg.session_id === 'string') o.sessionId(msg.session_id);
  } else if (msg.type === 'result') {
    o.turnEnded();
  }
}
