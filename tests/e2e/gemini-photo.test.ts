// A photo from the phone reaches a PTY Gemini (the real Gemini CLI TUI against the fake Gemini API,
// a real hub): the runner writes it under the session's attachments folder and types `@path` before
// the words, as a person at the desk names a file. Gemini was given that folder at launch
// (`--include-directories`), so its read needs no "allow?" of anyone; the fake receives the photo's
// bytes as inline data; the chat shows the words and the photo, not a temporary path.
import { describe, expect, it } from 'vitest';
import { splitAttachmentMentions } from '@tether/shared';
import { lastUserText, text } from '../fixtures/fake-gemini/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { GEMINI_READY } from '../harness/gemini.ts';
import { startGeminiWorld } from '../harness/gemini-world.ts';
import { uploadAttachment } from '../harness/hub.ts';
import { chatText } from '../harness/runner.ts';

const defer = useCleanups();
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('tether gemini: a photo from the phone (PTY)', () => {
  it('reaches the model as inline data with the words, asking nobody; the chat shows the words and the photo', async () => {
    const { fake, hub, runner, phone } = await startGeminiWorld(defer, { script: [(request) => text(`gemini saw: ${lastUserText(request)}`)] });
    await runner.waitForScreen(GEMINI_READY, { timeoutMs: 60_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    const photo = await uploadAttachment(hub, { sessionId: runner.sessionId, data: PNG, name: 'IMG_0042.PNG' });
    const sent = await phone.emit('prompt:send', { sessionId: runner.sessionId, promptId: crypto.randomUUID(), text: 'what is in this picture?', attachments: [photo.id] });
    expect(sent.ok).toBe(true);
    const promptId = (sent.prompt as { id: string }).id;
    const request = await fake.waitForRequest((r) => r.kind === 'main' && JSON.stringify(r.body ?? '').includes(PNG.toString('base64')), { timeoutMs: 60_000 });
    expect(JSON.stringify(request.body)).toContain('what is in this picture?');
    const said = await phone.waitFor(() => phone.messages().find((m) => m.role === 'user' && m.promptId === promptId), { what: 'the prompt in the chat, delivered' });
    // As typed: the file by its full path (the chat draws it as the photo), then the words; not the
    // path relative to the folder, nor the "Content from referenced files" block Gemini records.
    const typed = said.content.map((b) => (b.type === 'text' ? b.text : b.type)).join('');
    expect(splitAttachmentMentions(typed)).toEqual({ files: ['IMG_0042.png'], text: 'what is in this picture?' });
    await phone.waitFor(() => phone.prompts().get(promptId)?.status === 'delivered', { what: 'the prompt delivered' });
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).startsWith('gemini saw:')), { what: 'the reply' });
    expect(phone.requested).toEqual([]);
  }, 120_000);
});
