// mcp-elicitation.ts: Codex's app-server request `mcpServer/elicitation/request` (the same shape in
// 0.160.0 and 0.171.0, `codex app-server generate-ts`: McpServerElicitationRequestParams), which
// carries two different things, told apart by its `_meta`:
//
//   an MCP server's own form (MCP elicitation/create in form mode)  ─► the phone's form (kind elicitation)
//   Codex's own approval of an MCP tool call (`_meta.codex_approval_kind: "mcp_tool_call"`, an empty
//       schema, "Allow the <server> MCP server to run tool "<tool>"?")  ─► a permission for mcp__<server>__<tool>
//
// The answer is {action: accept|decline|cancel, content, _meta: null}. Anything else (URL mode, the
// openai form modes, user verification) is not shown as something it is not: it is declined.
import { ElicitationInputSchema, type ElicitationAnswer, type ElicitationInput } from '@tether/shared';

type Json = Record<string, unknown>;
const record = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);

export type McpElicitation =
  | { kind: 'form'; input: ElicitationInput }
  | { kind: 'tool-approval'; server: string; tool: string | null; toolInput: Json; message: string }
  | { kind: 'unsupported'; why: string };

/** What Codex asks. A tool approval from 0.160.0 does not name the tool (`_meta.tool_name` came
 *  later): `tool` is then null and the caller finds it from the call under way. */
export function readMcpElicitation(params: Json): McpElicitation {
  const server = typeof params.serverName === 'string' ? params.serverName : '';
  const meta = record(params._meta);
  if (meta?.codex_approval_kind === 'mcp_tool_call') {
    const tool = typeof meta.tool_name === 'string' && meta.tool_name !== '' ? meta.tool_name : null;
    return { kind: 'tool-approval', server, tool, toolInput: record(meta.tool_params) ?? {}, message: typeof params.message === 'string' ? params.message : '' };
  }
  if (params.mode !== 'form') return { kind: 'unsupported', why: `mode ${JSON.stringify(params.mode)} (only forms reach the phone)` };
  const parsed = ElicitationInputSchema.safeParse({ serverName: server, message: typeof params.message === 'string' ? params.message : '', requestedSchema: params.requestedSchema });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'unsupported', why: `${issue?.path.join('.') || 'the form'}: ${issue?.message ?? 'invalid'}` };
  }
  return { kind: 'form', input: parsed.data };
}

/** The MCP tool as the phone names it (claude's naming of MCP tools). */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** Codex's response to the request: the form's answer, or no (decline) when nobody gave one. */
export function mcpElicitationResponse(answer: ElicitationAnswer | null): { action: ElicitationAnswer['action']; content: Json | null; _meta: null } {
  if (!answer) return { action: 'decline', content: null, _meta: null };
  return { action: answer.action, content: answer.action === 'accept' ? (answer.content ?? {}) : null, _meta: null };
}
