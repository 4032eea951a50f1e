// Desk ⇄ hub chat through a real `tether gemini` (the real Gemini CLI against the fake Gemini API, a
// real hub): a prompt typed at the desk becomes chat with its reply; a prompt sent from the phone is
// typed into Gemini's input and answered; abort from the phone cancels the reply (Esc, as at the desk).
import { describe, expect, it } from 'vitest';
import { lastUserText, streamedText, text } from '../fixtures/fake-gemini/index.ts';
import { GEMINI_READY } from '../harness/gemini.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';
import { expectDeskTurnInChat, expectPromptAnswered } from '../harness/phone-prompt.ts';

const defer = useCleanups();

describe('tether gemini: chat mirrored to the hub', () => {
  it('a prompt typed at the desk shows up as chat, with the reply and the usage', async () => {
    const { runner, phone, fake } = await startGeminiWorld(defer, { script: [text('Gemini desk reply')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect(phone.session()).toMatchObject({ agent: 'gemini', launchKind: 'pty', capabilities: { displayName: 'Gemini' } });
    runner.paste('hello from the gemini desk');
    await runner.waitForScreen('hello from the gemini desk');
    // A person's Enter comes after the paste has settled: Gemini takes an Enter inside its paste
    // window as a newline (the agent's pasteSettleMs, which the runner waits for its own prompts).
    await Bun.sleep(500);
    runner.write('\r');
    await expectDeskTurnInChat(phone, { prompt: 'hello from the gemini desk', reply: 'Gemini desk reply' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the turn' });
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === 10, { what: 'the usage of the turn' });
    expect(phone.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(phone.duplicates()).toBe(0);
    // The fake was asked only what it knows, with the key it was given.
    expect(fake.requests.filter((r) => r.kind === 'other')).toEqual([]);
    expect(fake.requests.find((r) => r.kind === 'main')?.headers['x-goog-api-key']).toBe('tether-fake-gemini-key');
  }, 60_000);

  it('a prompt sent from the phone is typed into Gemini and answered', async () => {
    const { runner, phone, fake } = await startGeminiWorld(defer, { script: [(request) => text(`gemini echo: ${lastUserText(request)}`)] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    await expectPromptAnswered({ phone, runner, prompt: 'what is up from the phone', reply: 'gemini echo: what is up from the phone' });
  }, 60_000);

  it('a prompt sent from the phone while Gemini starts is typed once it is ready (after its SessionStart hook), and answered once', async () => {
    const { runner, phone, fake } = await startGeminiWorld(defer, { script: [(request) => text(`gemini early: ${lastUserText(request)}`)], ready: false });
    // Sent before Gemini drew anything: the runner holds it, whatever the hub or the screen says.
    const sent = await phone.send('sent while gemini starts');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('gemini early: sent while gemini starts')), { what: 'the early prompt answered', timeoutMs: 45_000 });
    expect(phone.prompts().get(sent.promptId)?.status).toBe('delivered');
    expect(phone.messages().filter((m) => m.role === 'user').map((m) => chatText(m))).toEqual(['sent while gemini starts']);
    expect(fake.requests.filter((r) => r.kind === 'main')).toHaveLength(1);
    await runner.waitForScreen('gemini early: sent while gemini starts');
  }, 60_000);

  it('abort from the phone cancels Gemini mid-reply; modes and models are not switched from the phone', async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => `Paragraph gemini-${i + 1}.\n\n`);
    const { fake, runner, phone } = await startGeminiWorld(defer, { script: [streamedText(chunks, { gapMs: 1000 })] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect(await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' })).toMatchObject({ ok: false, code: 'bad_request' });
    await phone.send('tell me a long story');
    await phone.waitFor(() => phone.session()?.status === 'thinking', { what: 'thinking' });
    const streamed = await fake.waitForRequest((request) => request.kind === 'main' && request.turnIndex === 0);
    expect((await phone.emit('session:abort', { sessionId: runner.sessionId })).ok).toBe(true);
    await expect.poll(() => streamed.outcome, { timeout: 15_000 }).toBe('aborted');
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the abort' });
    await runner.waitForScreen(GEMINI_READY);
    expect(runner.screenText()).not.toContain('gemini-20.');
  }, 60_000);
});
