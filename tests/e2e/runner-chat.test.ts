// Desk ⇄ hub chat through a real `tether claude` (real claude against the fake API, real hub):
// text typed at the desk becomes chat; text sent from the hub is typed and answered; a multi-line
// message is one prompt.
import { describe, expect, it } from 'vitest';
import { text, userSays, when, lastUserText } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startWorld } from '../harness/world.ts';

const defer = useCleanups();

describe('tether claude: chat mirrored to the hub', () => {
  it('a prompt typed at the desk shows up as chat, with the reply', async () => {
    const { runner, phone } = await startWorld(defer, { script: [text('Desk reply here')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    runner.write('hello from the desk');
    await runner.waitForScreen('hello from the desk');
    runner.write('\r');
    const reply = await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('Desk reply here')), {
      what: 'assistant reply',
    });
    const user = phone.messages().find((m) => m.role === 'user' && chatText(m) === 'hello from the desk');
    expect(user).toBeDefined();
    expect(user!.promptId).toBeNull();
    expect(user!.seq).toBeLessThan(reply.seq);
    expect(phone.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(phone.duplicates()).toBe(0);
  });

  it('a prompt sent from the hub is typed into claude and answered; a 3-line message is one prompt', async () => {
    const { fake, runner, phone } = await startWorld(defer, {
      script: [(request) => text(`echo: ${lastUserText(request).split('\n').length} lines`), when(userSays(/line three/), text('three-line reply'))],
    });
    const sent = await phone.send('what is up from the phone');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.prompts().get(sent.promptId)?.status === 'delivered', { what: 'prompt delivered' });
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('echo: 1 lines')), { what: 'reply' });
    const user = phone.messages().find((m) => m.role === 'user' && m.promptId === sent.promptId);
    expect(user && chatText(user)).toBe('what is up from the phone');
    await runner.waitForScreen('echo: 1 lines');

    const multi = await phone.send('line one\nline two\nline three');
    await phone.waitFor(() => phone.prompts().get(multi.promptId)?.status === 'delivered', { what: '3-line prompt delivered' });
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('three-line reply')), { what: '3-line reply' });
    const mains = fake.mainRequests();
    const multiRequests = mains.filter((r) => /line one/.test(JSON.stringify(r.messages.at(-1))));
    expect(multiRequests).toHaveLength(1);
    expect(lastUserText(multiRequests[0]!)).toContain('line one\nline two\nline three');
    const users = phone.messages().filter((m) => m.role === 'user');
    expect(users.map(chatText)).toEqual(['what is up from the phone', 'line one\nline two\nline three']);
    expect(phone.duplicates()).toBe(0);
  });
});
