// MCP forms of a headless Codex answered from the phone: a stdio MCP server (tests/fixtures/
// elicit-mcp, the one claude's elicitation tests use) asks for input in its tool; Codex's app server
// relays it as `mcpServer/elicitation/request`, which tether puts to the phone as the same
// `elicitation` request (and card) a claude session's Elicitation hook sends. Codex first asks, in the
// same request, whether the MCP tool may run at all: that is a permission for mcp__elicit__ask_details.
// The first answer wins; accept (content that fits: the hub refuses other), decline and cancel reach
// the server exactly; a denied tool never runs. Checked at the pin TETHER_CODEX_BIN names (0.160.0
// and 0.171.0 both relay it).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolOutput, lastToolOutputs, mcpToolCall, text, userSays, when, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import { ELICIT_SERVER, elicitFixture, type ElicitFixture } from '../fixtures/elicit-mcp/config.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexDaemonWorld } from '../harness/codex-world.ts';
import { chatText } from '../harness/runner.ts';
import { until } from '../harness/waiting.ts';

const defer = useCleanups();
const TOOL = `mcp__${ELICIT_SERVER}__ask_details`;
const CONTENT = { name: 'Ada', replicas: 3, notify: false, region: 'us-east' };

/** A headless Codex with the elicit server configured, idle, its server's tools listed. */
async function headlessCodexWithForms(script: ScriptTurn[]) {
  const fixture: ElicitFixture = elicitFixture();
  defer(() => fixture.stop());
  const world = await startCodexDaemonWorld(defer, { script });
  appendFileSync(join(world.sandbox.codexHome, 'config.toml'), `\n${fixture.codexToml}`);
  const { session, sessionId, watch } = await world.spawn('headless');
  expect(session.capabilities?.relays.requests).toContain('elicitation');
  await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
  // Codex starts its MCP servers beside the thread: a turn before it listed their tools would not offer them.
  await until(() => fixture.log().some((e) => e.event === 'tools-list'), 20_000, 'Codex listing the MCP server’s tools');
  return { ...world, watch, sessionId, fixture };
}

/** Codex's own question first: may the MCP tool run? Allowed from the phone (the first asked after
 *  the `after` requests the phone already saw). */
async function allowTheTool(watch: Awaited<ReturnType<typeof headlessCodexWithForms>>['watch'], after = 0) {
  const approval = await watch.waitFor(() => watch.requested.slice(after).find((r) => r.toolName === TOOL), { what: 'the MCP tool’s approval' });
  expect(approval).toMatchObject({ kind: 'permission', toolInput: {} });
  expect((await watch.emit('approval:answer', { requestId: approval.id, answer: { decision: 'allow' } })).ok).toBe(true);
}

describe('headless Codex: MCP forms on the phone', () => {
  it('the form reaches the phone as an elicitation; a misfit answer is refused; the first answer wins and the server receives exactly its content', async () => {
    const { fake, watch, fixture } = await headlessCodexWithForms([when(userSays('deploy'), mcpToolCall(ELICIT_SERVER, 'ask_details', {}, { callId: 'call_f1' })), when(hasToolOutput(), text('deploy step done'))]);
    await watch.send('deploy please');
    await allowTheTool(watch);
    const form = await watch.waitFor(() => watch.requested.find((r) => r.kind === 'elicitation'), { what: 'the MCP form on the phone' });
    expect(form).toMatchObject({ toolName: ELICIT_SERVER, toolInput: { serverName: ELICIT_SERVER, message: 'Who is deploying, and where to?', requestedSchema: { required: ['name', 'region'] } } });
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting on the form' });
    const misfit = await watch.emit('approval:answer', { requestId: form.id, answer: { decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada', region: 'mars' } } } });
    expect(misfit).toMatchObject({ ok: false, code: 'bad_request' });
    expect(fixture.log().some((e) => e.event === 'answer')).toBe(false);
    expect((await watch.emit('approval:answer', { requestId: form.id, answer: { decision: 'allow', elicitation: { action: 'accept', content: CONTENT } } })).ok).toBe(true);
    // A second phone's answer comes too late.
    const late = await watch.emit('approval:answer', { requestId: form.id, answer: { decision: 'deny', elicitation: { action: 'decline' } } });
    expect(late).toMatchObject({ ok: false, code: 'conflict' });
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'deploy step done'), { what: 'the reply after the form' });
    expect(fixture.log().filter((e) => e.event === 'answer')).toEqual([expect.objectContaining({ action: 'accept', content: CONTENT })]);
    // The tool's result as the model read it: Codex's output parts, the server's text among them.
    const output = JSON.parse(fake.mainRequests().flatMap(lastToolOutputs).find((o) => o.callId === 'call_f1')?.output ?? '[]') as Array<{ text?: string }>;
    expect(output.map((part) => part.text)).toContain(`accept ${JSON.stringify(CONTENT)}`);
    const audit = await watch.waitFor(() => watch.resolved.find((r) => r.requestId === form.id), { what: 'the resolution' });
    expect(audit).toMatchObject({ outcome: 'answered', toolName: ELICIT_SERVER, answer: { elicitation: { action: 'accept' } } });
  }, 120_000);

  it('decline and cancel reach the server without content', async () => {
    const { watch, fixture } = await headlessCodexWithForms([
      when(userSays('first'), mcpToolCall(ELICIT_SERVER, 'ask_details', {}, { callId: 'call_d1' })),
      when(userSays('second'), mcpToolCall(ELICIT_SERVER, 'ask_details', {}, { callId: 'call_c1' })),
      when(hasToolOutput(), text('step over')),
    ]);
    for (const [prompt, action] of [
      ['first', 'decline'],
      ['second', 'cancel'],
    ] as const) {
      const before = watch.requested.length;
      await watch.send(prompt);
      await allowTheTool(watch, before);
      const form = await watch.waitFor(() => watch.requested.slice(before).find((r) => r.kind === 'elicitation'), { what: `the form (${action})` });
      expect((await watch.emit('approval:answer', { requestId: form.id, answer: { decision: 'deny', elicitation: { action } } })).ok).toBe(true);
      await until(() => fixture.log().filter((e) => e.event === 'answer').length === (action === 'decline' ? 1 : 2), 30_000, `the server hearing ${action}`);
      await watch.waitFor(() => watch.session()?.status === 'idle', { what: `idle after ${action}` });
    }
    expect(fixture.log().filter((e) => e.event === 'answer')).toEqual([expect.objectContaining({ action: 'decline', content: null }), expect.objectContaining({ action: 'cancel', content: null })]);
  }, 120_000);

  it('the MCP tool denied on the phone never runs, and the model reads why', async () => {
    const { fake, watch, fixture } = await headlessCodexWithForms([
      when(userSays('deploy'), mcpToolCall(ELICIT_SERVER, 'ask_details', {}, { callId: 'call_n1' })),
      (request) => text(JSON.stringify(request.input).includes('not from this branch') ? 'noted: reason read' : 'no reason'),
    ]);
    await watch.send('deploy please');
    const approval = await watch.waitFor(() => watch.requested.find((r) => r.toolName === TOOL), { what: 'the MCP tool’s approval' });
    await watch.emit('approval:answer', { requestId: approval.id, answer: { decision: 'deny', reason: 'not from this branch' } });
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted: reason read'), { what: 'the reason read' });
    expect(fixture.log().some((e) => e.event === 'asking')).toBe(false);
    expect(watch.requested.filter((r) => r.kind === 'elicitation')).toEqual([]);
    expect(fake.mainRequests().length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
