// A photo from the phone reaches a PTY Codex as an image (the real Codex TUI against the fake
// Responses API, a real hub): the runner writes it under the session's temp dir and pastes its path
// alone into Codex's composer, which attaches it ("[Image #1]", Agent.ptyImages), then the words.
// The fake receives an input_image with the photo's bytes; the chat shows the words and `[image]`,
// and the prompt is delivered (matched by its words, without Codex's placeholder).
import { describe, expect, it } from 'vitest';
import { lastUserText, text } from '../fixtures/fake-openai/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { uploadAttachment } from '../harness/hub.ts';
import { startCodexWorld } from '../harness/codex-world.ts';

const defer = useCleanups();
/** A 1×1 PNG that Codex decodes (it omits one it cannot, saying so to the model). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('tether codex: a photo from the phone (PTY)', () => {
  it('reaches the model as an image part, with the words; the chat shows both and the prompt is delivered', async () => {
    const { fake, hub, runner, phone } = await startCodexWorld(defer, { script: [(request) => text(`codex saw: ${lastUserText(request)}`)] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    const photo = await uploadAttachment(hub, { sessionId: runner.sessionId, data: PNG, name: 'IMG_0042.PNG' });
    const sent = await phone.emit('prompt:send', { sessionId: runner.sessionId, promptId: crypto.randomUUID(), text: 'what is in this picture?', attachments: [photo.id] });
    const promptId = (sent.prompt as { id: string }).id;
    expect(sent.ok).toBe(true);
    const request = await fake.waitForRequest((r) => r.kind === 'main' && JSON.stringify(r.body?.input ?? '').includes('input_image'), { timeoutMs: 30_000 });
    const user = (request.body?.input as Array<{ role?: string; content?: Array<{ type?: string; image_url?: string; text?: string }> }>).filter((item) => item.role === 'user').at(-1);
    const parts = user?.content ?? [];
    expect(parts.filter((p) => p.type === 'input_image').map((p) => p.image_url)).toEqual([`data:image/png;base64,${PNG.toString('base64')}`]);
    expect(parts.some((p) => p.type === 'input_text' && p.text?.includes('what is in this picture?'))).toBe(true);
    const said = await phone.waitFor(() => phone.messages().find((m) => m.role === 'user' && m.promptId === promptId), { what: 'the prompt in the chat, delivered' });
    expect(said.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual(['what is in this picture?', '[image]']);
    await phone.waitFor(() => phone.prompts().get(promptId)?.status === 'delivered', { what: 'the prompt delivered' });
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).startsWith('codex saw:')), { what: 'the reply' });
  });
});
