// Permissions answered from the phone with real claude: allowed → the command ran; denied with a
// reason → claude got the reason; allow-for-session and `prefix:*` rules become claude's own session
// rules (the next matching call is not asked, and /permissions lists them); the desk answers first in
// claude's own dialog → the hub request clears at once and what was chosen completes its audit entry.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasToolResult, text, toolUse, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { answerDeskDialog, DESK_DIALOG, startApprovalWorld, type ApprovalWorld } from '../harness/approvals.ts';
import { DIALOG_OUTCOME_REASON } from '@tether/shared';

let world: ApprovalWorld | null = null;
afterEach(async () => {
  await world?.stop();
  world = null;
});

const bash = (command: string, id: string) => toolUse('Bash', { command, description: `run ${command}` }, { id });

describe('permission approvals', () => {
  it('allowed on the phone → the command ran and claude got its output', async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), bash('echo ran-$((40+2)) > ran.txt; cat ran.txt', 'toolu_allow1')), when(hasToolResult({ isError: false }), text('all done'))],
    });
    const { phone, runner } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    expect(request).toMatchObject({ kind: 'permission', toolUseId: 'toolu_allow1' });
    expect((await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await runner.waitForScreen('all done');
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]); // the hook's request covered claude's dialog
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_allow1')).toMatchObject({ isError: false, text: expect.stringContaining('ran-42') });
  }, 60_000);

  it('denied with a reason → the tool did not run and claude got the reason', async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), bash('touch nope.txt', 'toolu_deny1')), when(hasToolResult({ isError: true }), text('ok, not doing it'))],
    });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } });
    await runner.waitForScreen('ok, not doing it');
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    const result = world.toolResults().find((r) => r.toolUseId === 'toolu_deny1');
    expect(result).toMatchObject({ isError: true, text: expect.stringContaining('use the Makefile target instead') });
  }, 60_000);

  it('a Write and an Edit allowed as edited on the phone → claude wrote what was allowed, not what it asked', async () => {
    world = await startApprovalWorld({
      script: [
        when(userSays(/write/), toolUse('Write', { file_path: 'notes.txt', content: 'asked: drop the table\n' }, { id: 'toolu_w1' })),
        when(hasToolResult({ id: 'toolu_w1' }), text('written')),
        when(userSays(/edit/), toolUse('Edit', { file_path: 'notes.txt', old_string: 'keep the table', new_string: 'asked: truncate it' }, { id: 'toolu_e1' })),
        when(hasToolResult({ id: 'toolu_e1' }), text('edited')),
      ],
    });
    const { phone, runner, sandbox } = world;
    const file = join(sandbox.cwd, 'notes.txt');
    await phone.send('write');
    const write = await world.nextRequest('Write');
    expect(write.toolInput).toMatchObject({ content: 'asked: drop the table\n' });
    await phone.emit('approval:answer', { requestId: write.id, answer: { decision: 'allow', updatedInput: { content: 'keep the table\n' } } });
    await runner.waitForScreen('written');
    expect(readFileSync(file, 'utf8')).toBe('keep the table\n');

    await phone.send('edit');
    const edit = await world.nextRequest('Edit');
    await phone.emit('approval:answer', { requestId: edit.id, answer: { decision: 'allow', updatedInput: { new_string: 'keep the table, add an index' } } });
    await runner.waitForScreen('edited');
    expect(readFileSync(file, 'utf8')).toBe('keep the table, add an index\n');
    expect(world.toolResults().filter((r) => r.toolUseId === 'toolu_w1' || r.toolUseId === 'toolu_e1').map((r) => r.isError)).toEqual([false, false]);
  }, 90_000);

  it('allow for this session → the second identical call is not asked', async () => {
    world = await startApprovalWorld({
      script: [
        when(userSays(/first/), bash('touch one.txt', 'toolu_s1')),
        when(hasToolResult({ id: 'toolu_s1' }), text('first done')),
        when(userSays(/second/), bash('touch one.txt', 'toolu_s2')),
        when(hasToolResult({ id: 'toolu_s2' }), text('second done')),
        when(userSays(/third/), bash('touch two.txt', 'toolu_s3')),
        when(hasToolResult({ id: 'toolu_s3' }), text('third done')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('first');
    const first = await world.nextRequest('Bash');
    await phone.emit('approval:answer', { requestId: first.id, answer: { decision: 'allow', sessionRule: { kind: 'bash-exact' } } });
    await runner.waitForScreen('first done');
    await phone.send('second');
    await runner.waitForScreen('second done');
    expect(phone.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(1);
    // Only that exact command: another one is asked again.
    await phone.send('third');
    const third = await world.nextRequest('Bash');
    expect(third.toolInput.command).toBe('touch two.txt');
    await phone.emit('approval:answer', { requestId: third.id, answer: { decision: 'allow' } });
    await runner.waitForScreen('third done');
    expect(world.toolResults().filter((r) => r.toolUseId.startsWith('toolu_s')).every((r) => !r.isError)).toBe(true);
    // The rule is claude's own: its /permissions lists it.
    runner.write('/permissions');
    await runner.waitForScreen('/permissions');
    runner.write('\r');
    await runner.waitForScreen('Bash(touch one.txt)');
    runner.write('\x1b');
  }, 60_000);

  it('a prefix:* rule allows later commands with that prefix, not others', async () => {
    world = await startApprovalWorld({
      script: [
        when(userSays(/first/), bash('touch alpha.txt', 'toolu_p1')),
        when(hasToolResult({ id: 'toolu_p1' }), text('first done')),
        when(userSays(/second/), bash('touch beta.txt gamma.txt', 'toolu_p2')),
        when(hasToolResult({ id: 'toolu_p2' }), text('second done')),
        when(userSays(/third/), bash('touch x.txt && rm -f chained.txt', 'toolu_p3')),
        when(hasToolResult({ id: 'toolu_p3' }), text('third done')),
      ],
    });
    const { phone, runner } = world;
    await phone.send('first');
    const first = await world.nextRequest('Bash');
    await phone.emit('approval:answer', { requestId: first.id, answer: { decision: 'allow', sessionRule: { kind: 'bash-prefix', prefix: 'touch:*' } } });
    await runner.waitForScreen('first done');
    await phone.send('second');
    await runner.waitForScreen('second done');
    expect(phone.requested.filter((r) => r.toolName === 'Bash')).toHaveLength(1);
    expect(world.toolResults().find((r) => r.toolUseId === 'toolu_p2')).toMatchObject({ isError: false });
    expect(existsSync(join(world.sandbox.cwd, 'gamma.txt'))).toBe(true);
    await phone.send('third');
    const third = await world.nextRequest('Bash');
    expect(third.toolInput.command).toBe('touch x.txt && rm -f chained.txt');
    await phone.emit('approval:answer', { requestId: third.id, answer: { decision: 'deny', reason: 'no' } });
    await runner.waitForScreen('third done');
  }, 60_000);

  it("the desk answers first in claude's own dialog → the phone clears at once, the audit says so, a late phone answer does nothing", async () => {
    world = await startApprovalWorld({
      script: [when(userSays(/go/), bash('touch desk-dialog.txt', 'toolu_d2')), when(hasToolResult({ isError: false }), text('dialog done'))],
    });
    const { phone, runner, sandbox, hub } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    expect(request.toolUseId).toBe('toolu_d2');
    // claude drew its own dialog at the desk while the phone was asked: the desk takes it.
    await answerDeskDialog(runner, '1');
    const resolution = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'approval:resolved' });
    expect(resolution).toMatchObject({ outcome: 'answered', answeredBy: 'desk', device: expect.stringMatching(/^desk@/) });
    await phone.waitFor(() => phone.session()?.pendingCount === 0, { what: 'badge cleared' });
    await runner.waitForScreen('dialog done');
    expect(existsSync(join(sandbox.cwd, 'desk-dialog.txt'))).toBe(true);
    // What was chosen there completes the audit entry.
    const completed = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id && r.answer !== null), { what: 'audit completed' });
    expect(completed).toMatchObject({ answeredBy: 'desk', answer: { decision: 'allow', reason: DIALOG_OUTCOME_REASON } });
    // The phone's late answer is "already answered", and nothing runs twice.
    const late = await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny' } });
    expect(late).toMatchObject({ ok: false, code: 'conflict' });
    const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}`, { headers: { authorization: `Bearer ${hub.token}` } });
    const body = (await res.json()) as { audit: Array<{ requestId: string; answeredBy: string; answer: { decision: string } | null }> };
    expect(body.audit.find((a) => a.requestId === request.id)).toMatchObject({ answeredBy: 'desk', answer: { decision: 'allow' } });
    expect(world.toolResults().filter((r) => r.toolUseId === 'toolu_d2')).toHaveLength(1);
    // claude's dialog was the hook request's: the dialog bridge never asked about it a second time.
    expect(phone.requested.filter((r) => r.kind === 'dialog')).toEqual([]);
  }, 60_000);

  it("refused in claude's own dialog at the desk → the phone clears and the audit says denied there", async () => {
    world = await startApprovalWorld({ script: [when(userSays(/go/), bash('touch refused.txt', 'toolu_d3'))] });
    const { phone, runner, sandbox } = world;
    await phone.send('go');
    const request = await world.nextRequest('Bash');
    await answerDeskDialog(runner, '\x1b'); // Esc: claude's "No"
    const completed = await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id && r.answer !== null), { what: 'audit completed' });
    expect(completed).toMatchObject({ answeredBy: 'desk', answer: { decision: 'deny', reason: DIALOG_OUTCOME_REASON } });
    await phone.waitFor(() => phone.session()?.pendingCount === 0, { what: 'badge cleared' });
    expect(existsSync(join(sandbox.cwd, 'refused.txt'))).toBe(false);
  }, 60_000);
});
