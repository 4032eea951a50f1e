// Desk ⇄ hub chat through a real `tether codex` (the real Codex TUI against the fake Responses API,
// a real hub): a prompt typed at the desk becomes chat with its reply; a prompt sent from the phone
// is typed into Codex's input and answered; the session says which agent it runs.
import { describe, expect, it } from 'vitest';
import { lastUserText, streamedText, text } from '../fixtures/fake-openai/index.ts';
import { CODEX_READY } from '../harness/codex.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { expectDeskTurnInChat, expectPromptAnswered } from '../harness/phone-prompt.ts';

const defer = useCleanups();

describe('tether codex: chat mirrored to the hub', () => {
  it('a prompt typed at the desk shows up as chat, with the reply', async () => {
    const { runner, phone } = await startCodexWorld(defer, { script: [text('Codex desk reply')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect(phone.session()).toMatchObject({ agent: 'codex', launchKind: 'pty' });
    runner.paste('hello from the codex desk');
    await runner.waitForScreen('hello from the codex desk');
    runner.write('\r');
    await expectDeskTurnInChat(phone, { prompt: 'hello from the codex desk', reply: 'Codex desk reply' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the turn' });
    expect(phone.duplicates()).toBe(0);
  });

  it('a prompt sent from the phone is typed into Codex and answered', async () => {
    const { runner, phone } = await startCodexWorld(defer, { script: [(request) => text(`codex echo: ${lastUserText(request)}`)] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    await expectPromptAnswered({ phone, runner, prompt: 'what is up from the phone', reply: 'codex echo: what is up from the phone' });
  });

  it('abort from the phone interrupts Codex mid-reply (Esc, as at the desk); modes are not switched from the phone (models are: codex-model.test.ts)', async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => `Paragraph codex-${i + 1}.\n\n`);
    const { fake, runner, phone } = await startCodexWorld(defer, { script: [streamedText(chunks, { gapMs: 1000 })] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    const refused = await phone.emit('session:set-mode', { sessionId: runner.sessionId, mode: 'plan' });
    expect(refused).toMatchObject({ ok: false, code: 'bad_request' });
    await phone.send('tell me a long story');
    await runner.waitForScreen(/codex-2\./);
    expect((await phone.emit('session:abort', { sessionId: runner.sessionId })).ok).toBe(true);
    const streamed = await fake.waitForRequest((request) => request.kind === 'main' && request.turnIndex === 0);
    await expect.poll(() => streamed.outcome, { timeout: 15_000 }).toBe('aborted');
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the abort' });
    await runner.waitForScreen(CODEX_READY);
    expect(runner.screenText()).not.toContain('codex-20.');
  });
});
