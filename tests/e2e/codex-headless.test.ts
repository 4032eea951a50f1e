// Headless Codex (chat only, no terminal) started from the phone on a machine running `tether
// daemon`: tether drives `codex app-server` over JSON-RPC. A prompt is a turn and its reply is chat
// (from Codex's rollout, as in a PTY); the command Codex asks about (exec_command escalated out of
// its sandbox) is a JSON-RPC request the phone answers: allowed → it ran; denied with a reason → it
// did not, and the model read the reason; abort interrupts the turn; End ends it; resume continues
// the same Codex thread and the same chat; a photo from the phone reaches the model as an image.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { delayed, execCommand, hasToolOutput, lastToolOutputs, lastUserText, requestUserInput, text, userSays, when, type ScriptTurn } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexDaemonWorld } from '../harness/codex-world.ts';
import { emitAck, uploadAttachment } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();
const SPAWN_ACK_MS = 60_000;
/** A 1×1 PNG that decodes: Codex reads the file and sends what it decoded (it omits an image it
 *  cannot decode; the 2×2 one claude's tests use is such a file for Codex). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function headlessCodex(script: ScriptTurn[]) {
  const world = await startCodexDaemonWorld(defer, { script });
  const { session, sessionId, watch } = await world.spawn('headless');
  expect(session).toMatchObject({ agent: 'codex', launchKind: 'headless' });
  await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle' });
  return { ...world, watch, sessionId };
}

describe('headless Codex (app-server) from the phone', () => {
  it('a prompt gets its reply; the command asked about runs once allowed; End ends it; resume continues the same thread and chat', async () => {
    const { fake, sandbox, phone, watch, sessionId } = await headlessCodex([
      when(userSays('hello'), text('hi from the app server')),
      when(userSays('go'), execCommand('echo ran-$((40+2)) > ran.txt; cat ran.txt', { justification: 'write the answer', callId: 'call_h1' })),
      when(hasToolOutput('ran-42'), text('all done')),
      (request) => text(`again: ${lastUserText(request)}`),
    ]);
    await watch.send('hello');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'hi from the app server'), { what: 'the reply' });
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the turn' });

    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request' });
    expect(request).toMatchObject({ kind: 'permission', toolInput: { command: 'echo ran-$((40+2)) > ran.txt; cat ran.txt', description: 'write the answer' } });
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting while asked' });
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow' } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'all done'), { what: 'the reply after the command' });
    expect(existsSync(join(sandbox.cwd, 'ran.txt'))).toBe(true);
    expect(fake.mainRequests().flatMap(lastToolOutputs).find((o) => o.callId === 'call_h1')?.output).toContain('ran-42');
    await watch.waitFor(() => watch.messages().find((m) => m.content.some((b) => b.type === 'tool_result' && b.toolUseId === 'call_h1' && b.content.includes('ran-42'))), { what: 'the result in chat' });
    const threadId = watch.session()?.agentSessionId;
    expect(threadId).toBeTruthy();

    expect((await emitAck(phone, 'session:stop', { sessionId }, 30_000)).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'ended', { what: 'ended' });
    const resumed = await emitAck<{ session: Session }>(phone, 'session:resume', { sessionId }, SPAWN_ACK_MS);
    expect(resumed.ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the resume' });
    expect(watch.session()).toMatchObject({ agent: 'codex', launchKind: 'headless', agentSessionId: threadId });
    await watch.send('once more');
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'again: once more'), { what: 'the reply after the resume' });
    const said = watch.messages().filter((m) => m.role === 'user').map(chatText).filter((t) => t);
    expect(said).toEqual(['hello', 'go', 'once more']);
    expect(watch.duplicates()).toBe(0);
    expect(sandbox.transcripts()).toHaveLength(1);
    await emitAck(phone, 'session:stop', { sessionId }, 30_000);
  }, 120_000);

  it('plan mode from the phone; then request_user_input: Codex\'s questions are asked on the phone with their options; the pick and the words of one\'s own reach the model by question id', async () => {
    const QUESTIONS = [
      { id: 'database', header: 'Database', question: 'Which database should the tests use?', options: [{ label: 'SQLite (Recommended)', description: 'A file per test' }, { label: 'PostgreSQL', description: 'A throwaway cluster' }] },
      { id: 'style', header: 'Style', question: 'Tabs or spaces?', options: [{ label: 'Tabs', description: 'One per level' }, { label: 'Spaces', description: 'Two per level' }] },
    ];
    const { fake, watch } = await headlessCodex([
      when(userSays('ask me'), requestUserInput(QUESTIONS, { callId: 'call_q1' })),
      when(hasToolOutput(), text('noted your choices')),
    ]);
    // Codex offers request_user_input in its plan (collaboration) mode only: "unavailable in Default mode".
    expect(watch.session()?.capabilities?.modes.values).toEqual(['default', 'plan']);
    expect((await watch.emit('session:set-mode', { sessionId: watch.session()!.id, mode: 'plan' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.permissionMode === 'plan', { what: 'plan mode' });
    await watch.send('ask me');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'AskUserQuestion'), { what: 'the question on the phone' });
    expect(JSON.stringify(fake.mainRequests().at(-1))).toMatch(/plan mode/i);
    expect(request).toMatchObject({
      kind: 'question',
      toolInput: { questions: QUESTIONS.map((q) => ({ question: q.question, header: q.header, options: q.options, multiSelect: false })) },
    });
    await watch.waitFor(() => watch.session()?.status === 'waiting', { what: 'waiting while asked' });
    const answers = { 'Which database should the tests use?': 'PostgreSQL', 'Tabs or spaces?': 'two spaces, like the rest' };
    expect((await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'allow', answers } })).ok).toBe(true);
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted your choices'), { what: 'the reply after the answers' });
    const output = fake.mainRequests().flatMap(lastToolOutputs).find((o) => o.callId === 'call_q1')?.output ?? '';
    expect(JSON.parse(output)).toEqual({ answers: { database: { answers: ['PostgreSQL'] }, style: { answers: ['two spaces, like the rest'] } } });
  }, 120_000);

  it('denied with a reason: the command does not run and the model reads the reason; the phone picks the next turn\'s model and effort; abort interrupts a turn', async () => {
    const { fake, sandbox, watch } = await headlessCodex([
      when(userSays('go'), execCommand('touch nope.txt', { justification: 'make a file', callId: 'call_h2' })),
      (request) => (JSON.stringify(request.input).includes('use the Makefile') ? text('noted: reason read') : text('waiting for the reason')),
      when(userSays('slow'), delayed(text('too late'), 60_000)),
    ]);
    await watch.send('go');
    const request = await watch.waitFor(() => watch.requested.find((r) => r.toolName === 'Bash'), { what: 'the Bash request' });
    await watch.emit('approval:answer', { requestId: request.id, answer: { decision: 'deny', reason: 'use the Makefile target instead' } });
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'noted: reason read'), { what: 'the reason read' });
    expect(existsSync(join(sandbox.cwd, 'nope.txt'))).toBe(false);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the denial' });

    // The phone's model runs the next turn.
    expect((await watch.emit('session:set-model', { sessionId: watch.session()!.id, model: 'gpt-fake-large' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.model === 'gpt-fake-large' || null, { what: 'the model on the hub' });
    expect((await watch.emit('session:set-effort', { sessionId: watch.session()!.id, level: 'max' })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.effort === 'xhigh' || null, { what: 'the effort on the hub' });
    await watch.send('slow');
    await watch.waitFor(() => watch.session()?.status === 'thinking', { what: 'thinking' });
    // Waited on at the fake (the hub says nothing more while the reply is held back).
    const asked = await fake.waitForRequest((r) => r.kind === 'main' && r.body !== undefined && lastUserText(r.body) === 'slow');
    expect(asked.body?.model).toBe('gpt-fake-large');
    // And the effort: Codex's highest is xhigh, so claude's "max" asks for that.
    expect((asked.body as { reasoning?: { effort?: string } } | undefined)?.reasoning?.effort).toBe('xhigh');
    expect((await watch.emit('session:abort', { sessionId: watch.session()!.id })).ok).toBe(true);
    await watch.waitFor(() => watch.session()?.status === 'idle', { what: 'idle after the abort' });
  }, 120_000);

  it('a photo and a text file from the phone: the photo reaches the model as an image (Codex\'s localImage), the file is named in the prompt', async () => {
    const { hub, fake, watch, sessionId } = await headlessCodex([when(userSays('describe both'), text('A square and a checklist.'))]);
    const photo = await uploadAttachment(hub, { sessionId, data: PNG, name: 'photo.png' });
    const notes = await uploadAttachment(hub, { sessionId, data: new TextEncoder().encode('- bump the version\n'), name: 'notes.txt' });
    const sent = await watch.emit('prompt:send', { sessionId, promptId: crypto.randomUUID(), text: 'describe both', attachments: [photo.id, notes.id] });
    expect(sent.ok).toBe(true);
    const promptId = (sent.prompt as { id: string }).id;
    await watch.waitFor(() => watch.messages().find((m) => m.role === 'assistant' && chatText(m) === 'A square and a checklist.'), { what: 'the reply' });
    await watch.waitFor(() => watch.prompts().get(promptId)?.status === 'delivered', { what: 'prompt delivered' });
    // Codex read the file and sent its bytes to the model as an image.
    const user = fake.mainRequests().flatMap((r) => (Array.isArray(r.input) ? r.input : [])).filter((item) => item.type === 'message' && item.role === 'user').at(-1);
    const parts = (user?.content ?? []) as Array<{ type?: string; image_url?: string; text?: string }>;
    expect(parts.filter((p) => p.type === 'input_image').map((p) => p.image_url)).toEqual([`data:image/png;base64,${PNG.toString('base64')}`]);
    // The text file is named by its path in the prompt, written under the session's temp dir.
    const said = watch.messages().find((m) => m.promptId === promptId);
    expect(said?.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual([expect.stringMatching(/^@\/\S+\/tether-attachments-[^/]+\/[0-9a-f-]{36}\/2-notes\.txt describe both$/), '[image]']);
  }, 120_000);
});
