// Codex's approvals answered from the phone, with the real Codex TUI: the command Codex asks about
// (exec_command escalated out of its sandbox) reaches the hub through its PermissionRequest hook
// (allowed → it ran and the model got its output: the journey, agent-journey.test.ts); denied with a
// reason → it did not run and the model read the reason; answered first at the desk in Codex's own dialog → the phone's request clears;
// no answer → Codex's own dialog stays at the desk (fail closed).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { execCommand, hasToolOutput, lastToolOutputs, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { CODEX_READY } from '../harness/codex.ts';

const defer = useCleanups();
/** Codex's own approval dialog at the desk, by structure: its numbered choice under the `›` marker. */
const CODEX_DIALOG = /^› 1\. /m;
/** Refused in Codex's dialog ("No, and tell Codex what to do differently"): the turn ends and the input row is back. */
const CODEX_READY_AFTER_NO = CODEX_READY;

describe('tether codex: approvals on the phone', () => {
  it('denied with a reason → the command did not run and the model read the reason', async () => {
    const { fake, runner, phone, sandbox } = await startCodexWorld(defer, {
      script: [when(userSays('go'), execCommand('touch nope.txt', { justification: 'make a file', callId: 'call_deny1' })), (request) => text(`noted: ${JSON.stringify(request.input).includes('use the Makefile') ? 'reason read' : 'no reason'}`)],
    });
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } });
    await runner.waitForScreen('noted: reason read');
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    expect(fake.mainRequests().length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('a key at the desk hands the question to Codex’s own dialog; the desk answers there first → the phone’s requests clear and the command runs', async () => {
    const { runner, phone } = await startCodexWorld(defer, {
      script: [when(userSays('go'), execCommand('echo desk-said-yes', { justification: 'say yes', callId: 'call_desk1' })), when(hasToolOutput('desk-said-yes'), text('desk answer taken'))],
    });
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    // While its hook waits Codex shows only "Running hook": a key at the desk brings up its dialog.
    await runner.waitForScreen(/Running hook/);
    runner.write(' ');
    await runner.waitForScreen(CODEX_DIALOG);
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'the permission request withdrawn' });
    // The phone is asked again, now about Codex's own dialog, and the desk answers it first.
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'Codex’s dialog on the hub' });
    expect(dialog.toolInput).toMatchObject({ options: expect.arrayContaining([expect.objectContaining({ key: '1' })]) });
    runner.write('1');
    await runner.waitForScreen('desk answer taken');
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === dialog.id), { what: 'the dialog request resolved' });
    const late = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '3' } });
    expect(late.ok).toBe(false);
  }, 60_000);

  it('after the hand-over the phone answers Codex’s dialog: its choice is pressed at the desk', async () => {
    const { runner, phone, sandbox } = await startCodexWorld(defer, {
      script: [when(userSays('go'), execCommand('touch refused.txt', { justification: 'make a file', callId: 'call_dialog1' })), text('told no')],
    });
    await phone.send('go');
    await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    await runner.waitForScreen(/Running hook/);
    runner.write(' ');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'Codex’s dialog on the hub' });
    const no = (dialog.toolInput as { options: Array<{ key: string; label: string }> }).options.find((o) => /^No\b/.test(o.label));
    expect(no).toBeDefined();
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: no!.key } })).ok).toBe(true);
    await runner.waitForScreen(CODEX_READY_AFTER_NO);
    expect(existsSync(join(sandbox.cwd, 'refused.txt'))).toBe(false);
  }, 60_000);

  it('with no hub to ask, Codex’s own dialog asks at the desk (fail closed)', async () => {
    const { startRunner, sandbox } = await startCodexWorld(defer, {
      script: [when(userSays('go'), execCommand('touch unasked.txt', { justification: 'make a file' })), text('fine')],
    });
    const runner = startRunner({ hub: null });
    await runner.waitForScreen(CODEX_READY);
    runner.write('go');
    await runner.waitForScreen(/^› go/m);
    runner.write('\r');
    await runner.waitForScreen(CODEX_DIALOG);
    expect(existsSync(join(sandbox.cwd, 'unasked.txt'))).toBe(false);
  }, 60_000);

  it('an edited command is refused, never run as first asked: Codex takes no edited input from its hook', async () => {
    const { runner, phone, sandbox } = await startCodexWorld(defer, {
      script: [when(userSays('go'), execCommand('touch asked.txt', { justification: 'make a file', callId: 'call_edit1' })), (request) => text(`model read: ${JSON.stringify(request.input).includes('cannot run an edited call') ? 'refusal' : 'something else'}`)],
    });
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', updatedInput: { command: 'touch edited.txt' } } });
    await runner.waitForScreen('model read: refusal');
    expect(existsSync(join(sandbox.cwd, 'asked.txt'))).toBe(false);
    expect(existsSync(join(sandbox.cwd, 'edited.txt'))).toBe(false);
  }, 60_000);
});
