// MCP elicitation answered from the phone with real claude: a stdio MCP server (tests/fixtures/
// elicit-mcp) asks for input in its tool; claude's Elicitation hook forwards the form to the hub; the
// phone's accept (with content that fits the form: the hub refuses other), decline, or the desk's Esc
// decides, and the server receives exactly that. A form tether cannot show stays claude's own, at the desk, and its Notification
// (elicitation_dialog) makes the session wait and tells the phone.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionAttentionFact } from '@tether/shared';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { ELICIT_TOOL, elicitFixture, type ElicitFixture } from '../fixtures/elicit-mcp/config.ts';
import { startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { runTether } from '../harness/runner.ts';
import { MANUAL_MODE } from '../harness/world.ts';

let world: ApprovalWorld | null = null;
let fixture: ElicitFixture | null = null;
afterEach(async (context) => {
  if (context.task.result?.state === 'fail' && world) {
    console.log(`runner log:\n${readFileSync(join(world.runner.home, 'logs', 'runner.log'), 'utf8').slice(-3000)}\nscreen:\n${world.runner.screenText()}\nrequests: ${JSON.stringify(world.phone.requested)}\nserver: ${JSON.stringify(fixture?.log())}`);
  }
  await world?.stop();
  world = null;
  fixture?.stop();
  fixture = null;
});

/** claude's own elicitation form at the desk (2.1.197 and 2.1.330: same header), or its URL dialog. */
const DESK_FORM = /requests your input|wants to open a URL/;

async function startElicitWorld(options: { schema?: Record<string, unknown>; url?: string } = {}): Promise<ApprovalWorld> {
  fixture = elicitFixture(options);
  const started = await startApprovalWorld({
    args: [...MANUAL_MODE, ...fixture.args],
    script: [when(userSays(/deploy/), toolUse(ELICIT_TOOL, {}, { id: 'toolu_el1' })), when(hasToolResult({ id: 'toolu_el1' }), text('deploy step done'))],
  });
  world = started;
  // claude connects MCP servers in the background: a prompt sent before would not see the tool.
  const deadline = Date.now() + 20_000;
  while (!fixture.log().some((e) => e.event === 'tools-list')) {
    if (Date.now() > deadline) throw new Error(`claude never listed the MCP server's tools; server log: ${JSON.stringify(fixture.log())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return started;
}

describe('MCP elicitation', () => {
  it('the phone accepts with content → the MCP server receives exactly that content', async () => {
    const { phone, runner } = await startElicitWorld();
    await phone.send('deploy please');
    const request = await world!.nextRequest('elicit');
    expect(request).toMatchObject({
      kind: 'elicitation',
      toolInput: { serverName: 'elicit', message: 'Who is deploying, and where to?', requestedSchema: { required: ['name', 'region'] } },
    });
    await phone.waitFor(() => phone.session()?.status === 'waiting', { what: 'the session to wait on a person' });
    // While the phone is asked claude waits on the hook; its own form is not drawn.
    expect(runner.screenText()).not.toMatch(DESK_FORM);
    // An answer that breaks the form's rules is refused at the hub (the runner would drop it): the
    // request stays waiting on every phone and nothing reaches claude.
    const broken = (await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', elicitation: { action: 'accept', content: { name: 'Ada', region: 'mars' } } } })) as { ok: boolean; code?: string; error?: string };
    expect(broken).toMatchObject({ ok: false, code: 'bad_request' });
    expect(broken.error).toContain('region must be one of the choices');
    expect(phone.resolved.some((r) => r.requestId === request.id)).toBe(false);
    expect(phone.session()?.status).toBe('waiting');
    const content = { name: 'Ada', replicas: 3, notify: false, region: 'us-east' };
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', elicitation: { action: 'accept', content } } })).ok).toBe(true);
    await runner.waitForScreen('deploy step done');
    expect(fixture!.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'accept', content });
    expect(world!.toolResults().find((r) => r.toolUseId === 'toolu_el1')?.text).toBe(`accept ${JSON.stringify(content)}`);
    // Audit: who answered, and what.
    const audit = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'the resolution' });
    expect(audit).toMatchObject({ outcome: 'answered', toolName: 'elicit', answer: { elicitation: { action: 'accept' } } });
  }, 60_000);

  it('from a shell: tether pending shows the form, tether answer --content accepts it', async () => {
    const { phone, runner, hub } = await startElicitWorld();
    await phone.send('deploy please');
    const request = await world!.nextRequest('elicit');
    const env = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: runner.home };
    const listed = await runTether(['pending'], env);
    expect(listed.stdout).toContain(request.id);
    expect(listed.stdout).toContain('Who is deploying, and where to? [name*: string, replicas: integer, notify: boolean, region*: eu-west|us-east|ap-south]');
    const answered = await runTether(['answer', request.id, 'allow', '--content', JSON.stringify({ name: 'Shell', region: 'eu-west' })], env);
    expect(answered).toMatchObject({ code: 0 });
    await runner.waitForScreen('deploy step done');
    expect(fixture!.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'accept', content: { name: 'Shell', region: 'eu-west' } });
  }, 60_000);

  it('the phone declines → the server gets decline and no content', async () => {
    const { phone, runner } = await startElicitWorld();
    await phone.send('deploy please');
    const request = await world!.nextRequest('elicit');
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', elicitation: { action: 'decline' } } });
    await runner.waitForScreen('deploy step done');
    expect(fixture!.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'decline', content: null });
  }, 60_000);

  it('the hub refuses an answer that breaks the form’s shape (accept as a deny)', async () => {
    const { phone } = await startElicitWorld();
    await phone.send('deploy please');
    const request = await world!.nextRequest('elicit');
    const bad = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', elicitation: { action: 'accept', content: {} } } });
    expect(bad.ok).toBe(false);
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', elicitation: { action: 'cancel' } } });
    await world!.runner.waitForScreen('deploy step done');
    expect(fixture!.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'cancel' });
  }, 60_000);

  it('the desk answers first (Esc interrupts the call) → the phone’s request is cleared as answered at the desk', async () => {
    const { phone, runner } = await startElicitWorld();
    await phone.send('deploy please');
    const request = await world!.nextRequest('elicit');
    // claude waits on the hook behind its busy footer (2.1.330 adds "running Elicitation hook").
    await runner.waitForScreen(/esc to interrupt/);
    runner.write('\x1b');
    const resolution = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'the request to clear' });
    expect(resolution).toMatchObject({ outcome: 'answered', answeredBy: 'desk', answer: null });
    // A late phone answer loses: claude no longer listens.
    const late = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', elicitation: { action: 'decline' } } });
    expect(late).toMatchObject({ ok: false, code: 'conflict' });
    expect(fixture!.log().some((e) => e.event === 'answer' && e.action === 'decline')).toBe(false);
  }, 60_000);

  it('a request the phone cannot show stays claude’s own at the desk; its notification makes the session wait and reaches the phone', async () => {
    // URL mode (open a web page) is not a form: not forwarded, nothing answered for the user.
    const { phone, runner } = await startElicitWorld({ url: 'http://127.0.0.1:9/authorize' });
    const attention: SessionAttentionFact[] = [];
    phone.socket.on('session:attention', (fact: SessionAttentionFact) => {
      attention.push(fact);
      phone.changed();
    });
    await phone.send('deploy please');
    const urlCapable = fixture!.log().some((e) => e.event === 'initialize' && !!(e as { capabilities?: { elicitation?: { url?: unknown } } }).capabilities?.elicitation?.url);
    if (!urlCapable) {
      // claude before URL elicitation (2.1.197 offers forms only): the server cannot ask, nothing reaches the phone.
      await runner.waitForScreen('deploy step done');
      expect(fixture!.log().map((e) => e.event)).toContain('no-url-capability');
      expect(phone.requested.filter((r) => r.kind === 'elicitation')).toEqual([]);
      return;
    }
    await runner.waitForScreen(DESK_FORM);
    expect(phone.requested.filter((r) => r.kind === 'elicitation')).toEqual([]);
    // claude notifies ~6 s after its form appeared.
    const fact = await phone.waitFor(() => attention[0], { what: 'claude’s elicitation_dialog notification', timeoutMs: 30_000 });
    expect(fact).toMatchObject({ sessionId: runner.sessionId, notificationType: 'elicitation_url_dialog' });
    await phone.waitFor(() => phone.session()?.status === 'waiting', { what: 'the session to wait' });
    // Esc in claude's own dialog is the desk's cancel; the server hears exactly that.
    runner.write('\x1b');
    await runner.waitForScreen('deploy step done');
    expect(fixture!.log().find((e) => e.event === 'answer')).toMatchObject({ action: 'cancel' });
  }, 60_000);
});
