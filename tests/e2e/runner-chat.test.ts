// Desk ⇄ hub chat through a real `tether claude` (real claude against the fake API, real hub):
// text typed at the desk becomes chat; text sent from the hub is typed and answered; a multi-line
// message is one prompt; a compaction goes on in the same transcript without reading it again.
import { describe, expect, it } from 'vitest';
import { text, userSays, when, lastUserText } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText, waitForRunnerLog } from '../harness/runner.ts';
import { startWorld } from '../harness/world.ts';
import { expectDeskTurnInChat, expectPromptAnswered } from '../harness/phone-prompt.ts';

const defer = useCleanups();

describe('tether claude: chat mirrored to the hub', () => {
  it('a prompt typed at the desk shows up as chat, with the reply', async () => {
    const { runner, phone } = await startWorld(defer, { script: [text('Desk reply here')] });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    runner.write('hello from the desk');
    await runner.waitForScreen('hello from the desk');
    runner.write('\r');
    const { user } = await expectDeskTurnInChat(phone, { prompt: 'hello from the desk', reply: 'Desk reply here' });
    expect(user.promptId).toBeNull();
    expect(phone.session()?.agentSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(phone.duplicates()).toBe(0);
  });

  it('a prompt sent from the hub is typed into claude and answered; a 3-line message is one prompt', async () => {
    const { fake, runner, phone } = await startWorld(defer, {
      script: [(request) => text(`echo: ${lastUserText(request).split('\n').length} lines`), when(userSays(/line three/), text('three-line reply'))],
    });
    await expectPromptAnswered({ phone, shows: (text) => runner.waitForScreen(text), prompt: 'what is up from the phone', reply: 'echo: 1 lines' });

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

  it('/compact at the desk: the chat goes on in the same transcript, which is not read again from its start', async () => {
    const { runner, phone } = await startWorld(defer, {
      script: [
        when(userSays(/first before the compaction/), text('first reply before')),
        when(userSays(/second before the compaction/), text('second reply before')),
        when(userSays(/after the compaction/), text('reply after')),
      ],
    });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    // Two exchanges: with one, claude 2.1.197 says "Not enough messages to compact."
    for (const which of ['first', 'second']) {
      await phone.send(`the ${which} before the compaction`);
      await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes(`${which} reply before`)), { what: `the ${which} reply` });
      await runner.waitForScreen(`${which} reply before`);
    }
    // claude summarises (a request the fake answers with its fallback), then runs its SessionStart
    // hook again with source "compact", naming the transcript it already writes to.
    runner.write('/compact');
    await runner.waitForScreen('/compact');
    runner.write('\r');
    await waitForRunnerLog(runner, /transcript: .*\(already tailed: on from offset \d+\)/, { timeoutMs: 60_000 });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the compaction', timeoutMs: 60_000 });
    await phone.send('and one after the compaction');
    await phone.waitFor(() => phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('reply after')), { what: 'the reply after it' });
    const users = phone.messages().filter((m) => m.role === 'user').map(chatText);
    expect(users.filter((t) => t === 'the first before the compaction')).toHaveLength(1);
    expect(users.filter((t) => t === 'the second before the compaction')).toHaveLength(1);
    expect(users.filter((t) => t === 'and one after the compaction')).toHaveLength(1);
    expect(phone.duplicates()).toBe(0);
  }, 120_000);
});
