// Gemini's text question (its ask_user tool with a field alone, drawn by Gemini even in yolo) answered
// from the phone, with the real Gemini TUI against the fake Gemini API: a pick is refused, the words
// typed from the hub reach the model. (Its choice question with a custom-value field, bad answers
// refused and control characters removed: the journey, agent-journey.test.ts.)
import { describe, expect, it } from 'vitest';
import { functionCall, lastToolResponses, text, userSays, when, type FakeGemini } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';

const defer = useCleanups();

const TEXT = functionCall('ask_user', { questions: [{ header: 'Name', question: 'What should the new module be called?', type: 'text', placeholder: 'a module name' }] });

/** The answers Gemini gave the model for its ask_user call. */
const askUserAnswers = (fake: FakeGemini): string | undefined => fake.mainRequests().flatMap(lastToolResponses).find((r) => r.name === 'ask_user')?.output;

describe('tether gemini: its own questions on the phone', () => {
  it('a text question is one field: the words typed from the hub reach the model', async () => {
    const { fake, runner, phone } = await startGeminiWorld(defer, { script: [when(userSays('name'), TEXT), text('name noted')] });
    await phone.send('name the module');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the text question on the hub', timeoutMs: 45_000 });
    expect(dialog.toolInput).toMatchObject({ title: 'Answer Questions', headline: 'What should the new module be called?', options: [], freeText: { placeholder: 'a module name' } });
    expect((dialog.toolInput as { freeText: { key?: string } }).freeText.key).toBeUndefined();
    const choice = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '1' } });
    expect(choice).toMatchObject({ ok: false });
    expect(String(choice.error)).toMatch(/typed/);
    expect((await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', text: 'tether-core' } })).ok).toBe(true);
    await runner.waitForScreen('name noted');
    expect(JSON.parse(JSON.parse(askUserAnswers(fake)!).output)).toEqual({ answers: { '0': 'tether-core' } });
  }, 120_000);
});
