// Gemini's own questions (its ask_user tool, drawn by Gemini even in yolo) answered from the phone,
// with the real Gemini TUI against the fake Gemini API: the dialog reaches the hub with its headline
// and its "Enter a custom value" field; the person's words typed from the hub reach the model (seen at
// the fake API), control characters gone; a text question (a field alone) likewise. Bad answers (text
// to a choice, a choice for the field, over the limit) are refused by the hub and nothing is typed.
import { describe, expect, it } from 'vitest';
import { FREE_TEXT_MAX_CHARS, type PendingRequest } from '@tether/shared';
import { functionCall, lastToolResponses, text, userSays, when, type FakeGemini } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';

const defer = useCleanups();

const CHOICE = functionCall('ask_user', {
  questions: [{ header: 'Database', question: 'Which database should the service use?', type: 'choice', options: [{ label: 'SQLite', description: 'one file' }, { label: 'PostgreSQL', description: 'a server' }] }],
});
const TEXT = functionCall('ask_user', { questions: [{ header: 'Name', question: 'What should the new module be called?', type: 'text', placeholder: 'a module name' }] });

/** The answers Gemini gave the model for its ask_user call. */
const askUserAnswers = (fake: FakeGemini): string | undefined => fake.mainRequests().flatMap(lastToolResponses).find((r) => r.name === 'ask_user')?.output;

describe('tether gemini: its own questions on the phone', () => {
  it('a choice question arrives with its headline and its custom-value field; words typed from the hub reach the model, control characters removed', async () => {
    const { fake, runner, phone } = await startGeminiWorld(defer, { script: [when(userSays('pick'), CHOICE), text('database noted')] });
    await phone.send('pick a database');
    const dialog = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog'), { what: 'the question on the hub', timeoutMs: 45_000 });
    expect(dialog.toolInput).toMatchObject({
      title: 'Answer Questions',
      headline: 'Which database should the service use?',
      options: [
        { key: '1', label: 'SQLite', detail: 'one file' },
        { key: '2', label: 'PostgreSQL', detail: 'a server' },
        { key: '3', label: 'Enter a custom value' },
      ],
      freeText: { key: '3', maxChars: FREE_TEXT_MAX_CHARS.gemini, placeholder: 'Enter a custom value' },
    });
    await refusedWithNothingTyped(phone, runner, dialog);
    const ack = await phone.emit('approval:answer', { requestId: dialog.id, answer: { decision: 'allow', choice: '3', text: 'Cockroach\x1b[31m\x1b[201~ please\u0007,\ttoday' } });
    expect(ack.ok).toBe(true);
    await runner.waitForScreen('database noted');
    expect(JSON.parse(JSON.parse(askUserAnswers(fake)!).output)).toEqual({ answers: { '0': 'Cockroach[31m[201~ please, today' } });
  }, 120_000);

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

/** Answers the hub refuses, each with its reason; the question stays open and its field empty. */
async function refusedWithNothingTyped(phone: Awaited<ReturnType<typeof startGeminiWorld>>['phone'], runner: Awaited<ReturnType<typeof startGeminiWorld>>['runner'], dialog: PendingRequest) {
  const refusals: Array<[unknown, RegExp]> = [
    [{ decision: 'allow', choice: '1', text: 'words for a choice' }, /only option 3 takes a typed answer/],
    [{ decision: 'allow', choice: '3' }, /typed: send its text/],
    [{ decision: 'allow', choice: '3', text: 'x'.repeat(FREE_TEXT_MAX_CHARS.gemini + 1) }, /at most 600/],
    [{ decision: 'allow', choice: '3', text: '\x1b\x07 \r\n' }, /empty/],
  ];
  for (const [answer, reason] of refusals) {
    const ack = await phone.emit('approval:answer', { requestId: dialog.id, answer });
    expect(ack.ok, JSON.stringify(answer)).toBe(false);
    expect(String(ack.error)).toMatch(reason);
  }
  expect(phone.resolved.find((r) => r.requestId === dialog.id)).toBeUndefined();
  expect(runner.screenText()).toMatch(/3\. +Enter a custom value/);
}
