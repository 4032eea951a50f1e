// The hub side of approvals with a real runner and claude: two web clients (answer in one, the other
// gets approval:resolved; a second answer is "already answered"); another namespace's answer is
// rejected; pending requests come with session:watch and GET /api/pending; `tether pending` and
// `tether answer` do the same from a shell; the audit trail names who answered and how long it took.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PendingRequest, Resolution } from '@tether/shared';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { connectSocket, emitAck } from '../harness/hub.ts';
import { runTether } from '../harness/tether-cli.ts';

let world: ApprovalWorld | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

const tether = (args: string[], env: Record<string, string>) => runTether({ args, env });

describe('approvals on the hub', () => {
  it('two web clients: one answers, the other clears; a second answer and a foreign namespace are rejected', async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), toolUse('Bash', { command: 'touch two.txt', description: 'x' })), when(hasToolResult({ isError: false }), text('two done'))],
    });
    const { phone, runner, hub, sandbox } = world;
    const tablet = await world.addPhone();
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    await tablet.waitFor(() => tablet.requested.find((r) => r.id === request.id), { what: 'the request on the second client' });
    // A late joiner gets it with session:watch, and the session badge counts it.
    const watch = (await tablet.emit('session:watch', { sessionId: runner.sessionId })) as { ok: boolean; pending: PendingRequest[]; session: { pendingCount: number } };
    expect(watch.pending.map((p) => p.id)).toEqual([request.id]);
    expect(watch.session.pendingCount).toBe(1);

    const foreignToken = await hub.createToken('other-team');
    const foreign = await connectSocket({ url: hub.url, nsp: '/web', token: foreignToken });
    try {
      const rejected = await emitAck(foreign, 'approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
      expect(rejected).toMatchObject({ ok: false, code: 'not_found' });
    } finally {
      foreign.close();
    }
    expect((await hub.store.listPending({ namespace: hub.namespace, sessionId: runner.sessionId })).map((p) => p.id)).toEqual([request.id]);

    const ack = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } });
    expect(ack.ok).toBe(true);
    const cleared = await tablet.waitFor(() => tablet.resolved.find((r: Resolution) => r.requestId === request.id), { what: 'approval:resolved on the other client' });
    expect(cleared).toMatchObject({ outcome: 'answered', answer: { decision: 'allow' }, device: 'test phone' });
    await tablet.waitFor(() => tablet.session()?.pendingCount === 0, { what: 'badge cleared on the other client' });
    const second = await tablet.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny' } });
    expect(second).toMatchObject({ ok: false, code: 'conflict', error: 'already answered' });
    await runner.waitForScreen('two done');
    expect(existsSync(join(sandbox.cwd, 'two.txt'))).toBe(true);

    const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${hub.token}` } });
    const body = (await res.json()) as { audit: Resolution[] };
    const entry = body.audit.find((a) => a.requestId === request.id);
    expect(entry).toMatchObject({ outcome: 'answered', answeredBy: 'harness', device: 'test phone', answer: { decision: 'allow' } });
    expect(entry!.waitedMs).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('tether pending lists the request; tether answer --answers answers a question from a shell', async () => {
    world = await startApprovalWorld({
      script: [
        when(
          userSays(/ask/),
          toolUse('AskUserQuestion', { questions: [{ question: 'Ship it?', header: 'Ship', multiSelect: false, options: [{ label: 'Yes', description: '' }, { label: 'No', description: '' }] }] }, { id: 'toolu_cli_q' }),
        ),
        when(hasToolResult({ id: 'toolu_cli_q' }), text('shipping')),
      ],
    });
    const { phone, runner, hub } = world;
    const env = { TETHER_HUB_URL: hub.url, TETHER_TOKEN: hub.token, TETHER_HOME: runner.home };
    await phone.send('ask me');
    const request = await world.nextRequest('AskUserQuestion');
    const listed = await tether(['pending', '--json'], env);
    expect(listed.code).toBe(0);
    const pending = (JSON.parse(listed.stdout) as { pending: PendingRequest[] }).pending;
    expect(pending).toEqual([expect.objectContaining({ id: request.id, kind: 'question', sessionId: runner.sessionId })]);
    const human = await tether(['pending'], env);
    expect(human.stdout).toContain(request.id);
    expect(human.stdout).toContain('Ship it?');
    const answered = await tether(['answer', request.id, 'allow', '--answers', JSON.stringify({ 'Ship it?': 'Yes' })], env);
    expect(answered).toMatchObject({ code: 0 });
    await runner.waitForScreen('shipping');
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_cli_q')?.text).toContain('"Ship it?"="Yes"');
    const again = await tether(['answer', request.id, 'deny'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already answered');
    expect(JSON.parse((await tether(['pending', '--json'], env)).stdout)).toEqual({ pending: [] });
  }, 60_000);
});
