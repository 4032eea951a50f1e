// The hub dies mid-turn and comes back: claude keeps running, the runner buffers the chat and state
// on disk, and once the hub is back everything arrives once, in order, and the session works on.
import { describe, expect, it } from 'vitest';
import { startFakeAnthropic, streamedText, text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startRestartableHub } from '../harness/hub.ts';
import { chatText, startRunner, watchSession } from '../harness/runner.ts';
import { DESK_READY } from '../harness/world.ts';

const defer = useCleanups();

describe('hub restart', () => {
  it('hub killed and restarted mid-turn loses and duplicates nothing', async () => {
    const fake = await startFakeAnthropic({
      script: [
        when(userSays(/long turn/), streamedText(['Alpha. ', 'Beta. ', 'Gamma.'], { gapMs: 1500 })),
        when(userSays(/after restart/), text('back in business')),
      ],
    });
    defer(() => fake.stop());
    const hubProcess = await startRestartableHub(defer);
    const { hub } = hubProcess;
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub, sandbox });
    defer(() => runner.stop());
    const phone = await watchSession({ hub, sessionId: runner.sessionId });
    defer(() => phone.stop());
    await runner.waitForScreen(DESK_READY);

    runner.write('long turn please');
    await runner.waitForScreen('long turn please');
    runner.write('\r');
    await phone.waitFor(() => phone.session()?.status === 'thinking', { what: 'thinking' });
    await hubProcess.kill('SIGKILL');

    // claude finishes the turn while the hub is gone.
    await runner.waitForScreen('Gamma.', { timeoutMs: 20_000 });
    await runner.waitForScreen(DESK_READY);
    await hubProcess.start();

    try {
      await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('Gamma.')), { timeoutMs: 15_000, what: 'reply written while the hub was down' });
    } catch (e) {
      const { readFileSync } = await import('node:fs');
      console.log(readFileSync(`${runner.home}/logs/runner.log`, 'utf8'));
      const res = await fetch(`${hub.url}/api/sessions/${runner.sessionId}/messages`, { headers: { authorization: `Bearer ${hub.token}` } });
      console.log(res.status, (await res.text()).slice(0, 2000));
      console.log(hubProcess.output().slice(-3000));
      throw e;
    }
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the restart' });
    const sent = await phone.send('after restart');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('back in business')), { what: 'reply after restart' });

    const messages = phone.messages();
    expect(messages.filter((m) => m.role === 'user').map(chatText)).toEqual(['long turn please', 'after restart']);
    expect(messages.filter((m) => chatText(m).includes('Gamma.'))).toHaveLength(1);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    const seqs = messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(phone.duplicates()).toBe(0);
  }, 90_000);
});
