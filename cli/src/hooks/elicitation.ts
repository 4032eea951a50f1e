// elicitation.ts: claude's Elicitation hook, both ways. An MCP server's `elicitation/create` arrives
// as the hook payload; the answer goes back as the hook's output.
//
//   claude ──POST /hook/elicitation {mcp_server_name, message, mode, requested_schema}──► runner
//          ◄── {hookSpecificOutput:{hookEventName:"Elicitation", action, content}} or {} ──┘
//
// Observed with claude 2.1.197 and 2.1.330 (docs/decisions/approvals.md): claude runs this hook
// *before* it draws its own form, and draws the form only when the hook answered `{}` (or failed).
// Invariant: a payload tether cannot show faithfully (URL mode, a schema outside MCP's flat form)
// is not forwarded; `{}` leaves claude's own form at the desk.
import { ElicitationInputSchema, type ElicitationAnswer, type ElicitationInput } from '@tether/shared';

export type ParsedElicitation = { kind: 'form'; input: ElicitationInput } | { kind: 'unsupported'; reason: string };

export function parseElicitationPayload(payload: Record<string, unknown>): ParsedElicitation {
  const mode = payload.mode ?? 'form';
  if (mode !== 'form') return { kind: 'unsupported', reason: `mode ${JSON.stringify(mode)} (only forms reach the phone)` };
  const parsed = ElicitationInputSchema.safeParse({
    serverName: payload.mcp_server_name,
    message: typeof payload.message === 'string' ? payload.message : '',
    requestedSchema: payload.requested_schema,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'unsupported', reason: `${issue?.path.join('.') || 'payload'}: ${issue?.message ?? 'invalid'}` };
  }
  return { kind: 'form', input: parsed.data };
}

/** The hook output claude reads: the MCP answer it hands to the server. */
export function elicitationOutput(answer: ElicitationAnswer): Record<string, unknown> {
  return {
    hookSpecificOutput: {
      hookEventName: 'Elicitation',
      action: answer.action,
      ...(answer.action === 'accept' ? { content: answer.content ?? {} } : {}),
    },
  };
}
