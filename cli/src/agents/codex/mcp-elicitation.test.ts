import { describe, expect, it } from 'vitest';
import { mcpElicitationResponse, mcpToolName, readMcpElicitation } from './mcp-elicitation.ts';

/** mcpServer/elicitation/request params as Codex 0.171.0 sent them (probe against tests/fixtures/elicit-mcp). */
const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 1, maxLength: 40 },
    region: { type: 'string', title: 'Region', enum: ['eu-west', 'us-east'], enumNames: ['Europe (West)', 'US (East)'] },
  },
  required: ['name', 'region'],
};
const FORM = { threadId: 't1', turnId: 'u1', serverName: 'elicit', environmentId: null, mode: 'form', _meta: null, message: 'Who is deploying, and where to?', requestedSchema: SCHEMA };
const TOOL_APPROVAL_171 = {
  threadId: 't1',
  turnId: 'u1',
  serverName: 'elicit',
  environmentId: null,
  mode: 'form',
  _meta: { codex_approval_kind: 'mcp_tool_call', persist: ['session', 'always'], tool_name: 'ask_details', tool_description: 'Asks', tool_params: { stage: 'prod' }, tool_params_display: [] },
  message: 'Allow the elicit MCP server to run tool "ask_details"?',
  requestedSchema: { type: 'object', properties: {} },
};

describe('Codex mcpServer/elicitation/request', () => {
  it('an MCP server’s form is the phone’s form', () => {
    expect(readMcpElicitation(FORM)).toEqual({ kind: 'form', input: { serverName: 'elicit', message: FORM.message, requestedSchema: SCHEMA } });
  });

  it('Codex’s approval of an MCP tool call is a permission for that tool; 0.160.0 does not name the tool', () => {
    expect(readMcpElicitation(TOOL_APPROVAL_171)).toEqual({ kind: 'tool-approval', server: 'elicit', tool: 'ask_details', toolInput: { stage: 'prod' }, message: TOOL_APPROVAL_171.message });
    const { tool_name: _, ...meta160 } = TOOL_APPROVAL_171._meta;
    expect(readMcpElicitation({ ...TOOL_APPROVAL_171, _meta: meta160 })).toMatchObject({ kind: 'tool-approval', tool: null });
    expect(mcpToolName('elicit', 'ask_details')).toBe('mcp__elicit__ask_details');
  });

  it('what the phone cannot show as a form is not shown as another thing', () => {
    expect(readMcpElicitation({ ...FORM, mode: 'url', url: 'https://x', elicitationId: 'e1' })).toMatchObject({ kind: 'unsupported', why: expect.stringContaining('url') });
    expect(readMcpElicitation({ ...FORM, mode: 'openai/form' })).toMatchObject({ kind: 'unsupported' });
    expect(readMcpElicitation({ ...FORM, requestedSchema: { type: 'object', properties: { a: { type: 'object' } } } })).toMatchObject({ kind: 'unsupported', why: expect.stringContaining('requestedSchema') });
  });

  it('answers with the form’s action; nobody answering is a decline (fail closed)', () => {
    expect(mcpElicitationResponse({ action: 'accept', content: { name: 'Ada' } })).toEqual({ action: 'accept', content: { name: 'Ada' }, _meta: null });
    expect(mcpElicitationResponse({ action: 'cancel' })).toEqual({ action: 'cancel', content: null, _meta: null });
    expect(mcpElicitationResponse(null)).toEqual({ action: 'decline', content: null, _meta: null });
  });
});
