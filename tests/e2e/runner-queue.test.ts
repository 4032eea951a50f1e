// Prompts from the hub against a busy claude: queued prompts wait for the end of a long streamed
// turn (with quiet gaps of seconds) and go in order; abort interrupts the turn, returns only the
// prompt in flight and drops what was queued behind it.
import { describe, expect, it } from 'vitest';
import { streamedText, text, userSays, when, lastUserText, type ScriptTurn } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, startWorld } from '../harness/world.ts';
import type { Prompt } from '@tether/shared';

const defer = useCleanups();

/** A world whose phone also keeps every prompt:updated it hears, in order. */
async function world(options: { script: ScriptTurn[] }) {
  const started = await startWorld(defer, { script: options.script, ready: false });
  const history: Prompt[] = [];
  started.phone.socket.on('prompt:updated', (p: Prompt) => history.push(p));
  await started.runner.waitForScreen(DESK_READY);
  return { ...started, history };
}

describe('prompt queue against a busy claude', () => {
  it('two messages sent during a long streamed reply with quiet gaps are typed after the turn, in order', async () => {
    const { fake, runner, phone, history } = await world({
      script: [
        when(userSays(/start the long one/), streamedText(['Part one. ', 'part two. ', 'part three.'], { gapMs: 3000 })),
        when(userSays(/queued one/), text('reply to queued one')),
        when(userSays(/queued two/), text('reply to queued two')),
      ],
    });
    runner.write('start the long one');
    await runner.waitForScreen('start the long one');
    runner.write('\r');
    await phone.waitFor(() => phone.session()?.status === 'thinking', { what: 'thinking' });
    const one = await phone.send('queued one');
    const two = await phone.send('queued two');
    expect(one.ok && two.ok).toBe(true);

    const done = await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('reply to queued two')), { timeoutMs: 30_000, what: 'second reply' });
    expect(done).toBeDefined();
    const long = phone.messages().find((m) => m.role === 'assistant' && chatText(m).includes('part three'))!;
    const typing = (id: string) => history.find((p) => p.id === id && p.status === 'typing')!;
    // Typed only after the long turn's text was complete (claude writes the block when it ends).
    expect(typing(one.promptId).updatedAt).toBeGreaterThanOrEqual(long.createdAt);
    expect(typing(two.promptId).updatedAt).toBeGreaterThan(typing(one.promptId).updatedAt);
    // Each went to the model as its own prompt, in order, after the long one.
    const prompts = fake.mainRequests().map((r) => lastUserText(r));
    const iLong = prompts.findIndex((t) => t.includes('start the long one'));
    const iOne = prompts.findIndex((t) => t.includes('queued one'));
    const iTwo = prompts.findIndex((t) => t.includes('queued two'));
    expect(iLong).toBeGreaterThanOrEqual(0);
    expect(iOne).toBeGreaterThan(iLong);
    expect(iTwo).toBeGreaterThan(iOne);
    expect(prompts[iOne]).not.toContain('queued two');
    const users = phone.messages().filter((m) => m.role === 'user').map(chatText);
    expect(users).toEqual(['start the long one', 'queued one', 'queued two']);
    expect(phone.prompts().get(one.promptId)?.status).toBe('delivered');
    expect(phone.prompts().get(two.promptId)?.status).toBe('delivered');
    expect(phone.duplicates()).toBe(0);
  }, 60_000);

  it('abort mid-stream: Esc interrupts, the prompt in flight is returned, the one behind it dropped; later prompts still work', async () => {
    const { runner, phone } = await world({
      script: [
        when(userSays(/go long/), streamedText(['First words. ', 'more words. ', 'never shown.'], { gapMs: 4000 })),
        when(userSays(/after the abort/), text('still alive')),
      ],
    });
    const first = await phone.send('go long');
    await phone.waitFor(() => phone.prompts().get(first.promptId)?.status === 'delivered', { what: 'first delivered' });
    await runner.waitForScreen(/esc to interrupt/);
    const behind = await phone.send('behind the long one');
    const ack = await phone.emit('session:abort', { sessionId: runner.sessionId });
    expect(ack.ok).toBe(true);
    await phone.waitFor(() => phone.prompts().get(first.promptId)?.status === 'returned', { what: 'in-flight prompt returned' });
    await phone.waitFor(() => phone.prompts().get(behind.promptId)?.status === 'dropped', { what: 'queued prompt dropped' });
    await phone.waitFor(() => phone.messages().find((m) => m.content.some((b) => b.type === 'interrupt')), { what: 'interrupt in chat' });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after abort' });
    expect(phone.messages().some((m) => chatText(m).includes('never shown'))).toBe(false);
    expect(phone.messages().some((m) => chatText(m).includes('behind the long one'))).toBe(false);

    const later = await phone.send('after the abort');
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('still alive')), { what: 'reply after abort' });
    expect(phone.prompts().get(later.promptId)?.status).toBe('delivered');
  }, 60_000);
});
