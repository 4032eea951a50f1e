// Headless Gemini (chat only, no terminal) started from the phone on a machine running `tether
// daemon`: tether drives `gemini --acp` over the Agent Client Protocol (the real Gemini CLI against the
// fake Gemini API). A prompt is a turn and its reply is chat (from Gemini's session file, as in a PTY);
// the command Gemini asks about is an ACP session/request_permission the phone answers: allowed → it
// ran; denied with a reason → it did not, and the model read the reason; abort cancels the turn; End
// ends the session; resume loads the same Gemini session (session/load) with the same chat; a photo
// reaches the model as an image. The floor pin: TETHER_GEMINI_BIN=.tools/gemini-0.58.0/node_modules/.bin/gemini.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { delayed, hasToolResponse, lastToolResponses, lastUserText, shellCommand, text, userSays, when, type ScriptTurn } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { FAKE_GEMINI_MODEL } from '../harness/gemini.ts';
import { startGeminiDaemonWorld } from '../harness/gemini-world.ts';
import { emitAck, uploadAttachment } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';
import { SPAWN_ACK_MS } from '../harness/daemon.ts';

const defer = useCleanups();
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function headlessGemini(script: ScriptTurn[]) {
  const world = await startGeminiDaemonWorld(defer, { script });
  const { session, sessionId, watch } = await world.spawn({ launchKind: 'headless' });
  expect(session).toMatchObject({ agent: 'gemini', launchKind: 'headless' });
  await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
  return { ...world, watch, sessionId };
}

describe('headless Gemini (ACP) from the phone', () => {
  it('a prompt gets its reply; the command asked about runs once allowed; End ends it; resume loads the same session and chat', async () => {
    const { fake, sandbox, phone, watch, sessionId } = await headlessGemini([
      when(userSays('hello'), text('hi from gemini over acp')),
      when(userSays('go'), shellCommand('echo ran-42 > ran.txt; cat ran.txt', { description: 'write the answer' })),
      when(hasToolResponse('ran-42'), text('all done')),
      (request) => text(`again: ${lastUserText(request)}`),
    ]);
    await watch.send('hello');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'hi from gemini over acp'), { what: 'the reply' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });
    expect(watch.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);

    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request' });
    expect(request).toMatchObject({ kind: 'permission', toolInput: { command: expect.stringContaining('echo ran-42 > ran.txt') } });
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting while asked' });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'all done'), { what: 'the reply after the command' });
    expect(existsSync(join(sandbox.cwd, 'ran.txt'))).toBe(true);
    expect(fake.mainRequests().flatMap(lastToolResponses).find((r) => r.name === 'run_shell_command')?.output).toContain('ran-42');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the command' });
    const agentSessionId = watch.session()?.agentSessionId;

    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
    const resumed = await emitAck<{ session: Session }>(phone, 'session:resume', { sessionId }, SPAWN_ACK_MS);
    expect(resumed).toMatchObject({ ok: true });
    // Resumed in the minute the session started: tether renames its file to the minute before first (a
    // Gemini bug would otherwise wipe the session: cli/src/agents/gemini/load-minute.ts).
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the resume', timeoutMs: 90_000 });
    expect(watch.session()).toMatchObject({ agent: 'gemini', launchKind: 'headless', agentSessionId });
    await watch.send('once more');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'again: once more'), { what: 'the reply after the resume' });
    // The model had the whole conversation: the session was loaded, not started anew.
    const last = fake.mainRequests().at(-1);
    expect(JSON.stringify(last?.contents)).toContain('hi from gemini over acp');
    const said = watch.messages().filter((m) => m.role === 'user').map(chatText).filter((t) => t);
    expect(said).toEqual(['hello', 'go', 'once more']);
    expect(watch.duplicates()).toBe(0);
    await emitAck(phone, 'session:stop', { sessionId }, 30_000);
  }, 200_000);

  it('denied with a reason: the command does not run and the model reads the reason; the phone picks the model; abort cancels a turn', async () => {
    const { fake, sandbox, watch, sessionId } = await headlessGemini([
      when(userSays('go'), shellCommand('touch nope.txt', { description: 'make a file' })),
      when(hasToolResponse('canceled'), text('the call was refused')),
      when(userSays('use the Makefile'), text('noted: reason read')),
      when(userSays('slow'), delayed(text('too late'), 60_000)),
    ]);
    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request' });
    await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } });
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted: reason read'), { what: 'the reason read' });
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    // At the fake: the refused call came back to the model as cancelled, then the person's reason.
    expect(fake.mainRequests().flatMap(lastToolResponses).find((r) => r.name === 'run_shell_command')?.output).toContain('canceled');
    expect(fake.mainRequests().some((r) => lastUserText(r).includes('use the Makefile target instead'))).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the denial' });

    // The phone's model runs the next turn (ACP session/set_model).
    expect((await watch.emit('session:set-model', { sessionId, model: 'gemini-2.5-pro' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.model === 'gemini-2.5-pro' || null, { what: 'the model on the hub' });
    await watch.send('slow');
    await watch.waitFor(() => watch.session()?.status === 'thinking', { what: 'thinking' });
    const asked = await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastUserText(r.body) === 'slow');
    expect(asked.path).toContain('/models/gemini-2.5-pro:');
    expect((await watch.emit('session:abort', { sessionId })).ok).toBe(true);
    await expect.poll(() => asked.outcome, { timeout: 15_000 }).toBe('aborted');
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the abort' });
    expect(watch.messages().some((m) => chatText(m) === 'too late')).toBe(false);
    expect(FAKE_GEMINI_MODEL).not.toBe('gemini-2.5-pro');
  }, 120_000);

  it('a photo and a text file from the phone reach the model: the image as inline data, the file\'s text with the prompt', async () => {
    const { hub, fake, watch, sessionId } = await headlessGemini([when(userSays('describe both'), text('A square and a checklist.'))]);
    const photo = await uploadAttachment(hub, { sessionId, data: PNG, name: 'photo.png' });
    const notes = await uploadAttachment(hub, { sessionId, data: new TextEncoder().encode('- bump the version\n'), name: 'notes.txt' });
    const sent = await watch.emit('prompt:send', { sessionId, promptId: crypto.randomUUID(), text: 'describe both', attachments: [photo.id, notes.id] });
    expect(sent.ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'A square and a checklist.'), { what: 'the reply' });
    const parts = fake.mainRequests().at(-1)?.contents?.filter((c) => c.role === 'user').flatMap((c) => c.parts ?? []) ?? [];
    expect(parts.map((p) => p.inlineData).filter(Boolean)).toEqual([{ mimeType: 'image/png', data: PNG.toString('base64') }]);
    expect(parts.some((p) => typeof p.text === 'string' && p.text === 'notes.txt:\n- bump the version\n')).toBe(true);
  }, 120_000);
});
