// Gemini CLI's approvals answered from the phone, with the real Gemini TUI. tether runs it in yolo with
// a BeforeTool hook on every tool but reading, whose policy is the session's mode (gate.ts): a shell command
// reaches the hub (allowed → it ran and the model got its output: the journey, agent-journey.test.ts);
// denied with a reason → it did not run and the model read the reason; a key at the desk hands the
// question to Gemini's own dialog and the desk answers first; a read-only tool is never asked about; with no hub, Gemini's own dialog asks
// at the desk (fail closed).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasToolResponse, lastToolResponses, readFile, shellCommand, text, userSays, when, writeFile } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText, waitForRunnerLog } from '../harness/runner.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';
import { GEMINI_DIALOG, GEMINI_READY } from '../harness/gemini.ts';

const defer = useCleanups();

describe('tether gemini: approvals on the phone', () => {
  it('denied with a reason → the command did not run and the model read the reason', async () => {
    const { fake, runner, phone, sandbox } = await startGeminiWorld(defer, {
      script: [when(userSays('go'), shellCommand('touch nope.txt', { description: 'make a file' })), (request) => text(`noted: ${JSON.stringify(request.contents).includes('use the Makefile') ? 'reason read' : 'no reason'}`)],
    });
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    await phone.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } });
    await runner.waitForScreen('noted: reason read');
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    expect(fake.mainRequests().length).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it('a read-only tool is not asked about, as plain gemini would not ask', async () => {
    const { runner, phone, sandbox } = await startGeminiWorld(defer, {
      script: [when(userSays('go'), (request) => readFile(join(String(JSON.stringify(request).match(/"(\/[^"]*project)\\n?/)?.[1] ?? ''), 'README.md'))), when(hasToolResponse(), text('read it'))],
    });
    await Bun.write(join(sandbox.cwd, 'README.md'), 'the readme\n');
    await phone.send('go');
    await runner.waitForScreen('read it');
    expect(phone.requested).toEqual([]);
  }, 90_000);

  it('a key at the desk hands the question to Gemini’s own dialog; the desk answers there first → the phone’s requests clear and the command runs', async () => {
    const { runner, phone } = await startGeminiWorld(defer, {
      script: [when(userSays('go'), shellCommand('echo desk-said-yes', { description: 'say yes' })), when(hasToolResponse('desk-said-yes'), text('desk answer taken'))],
    });
    await phone.send('go');
    const request = await phone.waitFor(() => phone.requested.find((r) => r.toolName === 'Bash'), { what: 'a Bash request on the hub' });
    // While its hook waits Gemini draws no dialog ("Executing Hook"): a key at the desk brings it up.
    await runner.waitForScreen(/Executing Hook/);
    runner.write(' ');
    await runner.waitForScreen(GEMINI_DIALOG);
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === request.id), { what: 'the permission request withdrawn' });
    // The phone is asked again, now about Gemini's own dialog, and the desk answers it first.
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'Gemini’s dialog on the hub' });
    expect(dialog.toolInput).toMatchObject({ options: expect.arrayContaining([expect.objectContaining({ key: '1', label: 'Allow once' })]) });
    // Its headline is the question it asks; what it is about, the command; it takes no typed answer.
    expect(dialog.toolInput).toMatchObject({ headline: 'Allow execution of [Shell]?', about: { kind: 'command', text: 'echo desk-said-yes' } });
    const typed = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', text: 'yes please' } });
    expect(typed).toMatchObject({ ok: false, error: expect.stringMatching(/takes no typed answer/) });
    runner.write('1');
    await runner.waitForScreen('desk answer taken');
    await phone.waitFor(() => phone.resolved.find((r) => r.requestId === dialog.id), { what: 'the dialog request resolved' });
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '3' } })).ok).toBe(false);
  }, 90_000);

  it('a file write handed to Gemini’s own dialog reaches the phone naming the file it writes, with its question as headline', async () => {
    const { runner, phone, sandbox } = await startGeminiWorld(defer, {
      script: [when(userSays('go'), (request) => writeFile(join(String(JSON.stringify(request).match(/"(\/[^"]*project)\\n?/)?.[1] ?? ''), 'notes.txt'), 'hi\n')), when(hasToolResponse(), text('written'))],
    });
    await phone.send('go');
    await phone.waitFor(() => phone.requested.find((r) => r.kind === 'permission'), { what: 'the write on the hub' });
    await runner.waitForScreen(/Executing Hook/);
    runner.write(' ');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'Gemini’s write dialog on the hub' });
    expect(dialog.toolInput).toMatchObject({ headline: 'Apply this change?', about: { kind: 'file', text: 'notes.txt' } });
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '1' } })).ok).toBe(true);
    await runner.waitForScreen('written');
    expect(existsSync(join(sandbox.cwd, 'notes.txt'))).toBe(true);
  }, 90_000);

  it('with no hub to ask, Gemini’s own dialog asks at the desk (fail closed)', async () => {
    const { startRunner, sandbox } = await startGeminiWorld(defer, {
      script: [when(userSays('go'), shellCommand('touch unasked.txt', { description: 'make a file' })), text('fine')],
    });
    const runner = startRunner({ hub: null });
    // A fresh TETHER_HOME reads `gemini --version` first (seconds on a loaded machine). With no phone
    // to tell it, the runner's log says when its SessionStart hook ran (an Enter before is lost), then
    // the desk waits, as a person does, for the hook's busy row to go.
    await waitForRunnerLog(runner, /SessionStart ran: ready/, { timeoutMs: 45_000 });
    await runner.waitForScreen(GEMINI_READY);
    runner.paste('go');
    await runner.waitForScreen(/^ ?\* go/m);
    await Bun.sleep(500);
    runner.write('\r');
    await runner.waitForScreen(GEMINI_DIALOG);
    expect(existsSync(join(sandbox.cwd, 'unasked.txt'))).toBe(false);
  }, 90_000);
});
