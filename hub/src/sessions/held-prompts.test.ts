// held-prompts.test.ts: prompt:edit and prompt:withdraw against a real hub on port 0 with real
// socket.io clients. A prompt sent while no runner of its session is connected stays the hub's: it
// is edited or withdrawn there, every tab hears it, and the runner that comes back gets only what
// is left, with its last text. Once handed over it is refused; another namespace sees nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { SessionRegistrationSchema, type Prompt } from '@tether/shared';
import { hubUnderTest } from '../testing/hub-under-test.ts';

const live = hubUnderTest({ home: 'tether-held-prompts-', label: 'phone-token' });
const { connect, ack, next } = live;

/** A session whose runner is not connected (registered in the store, as a runner that left would
 *  have): prompts sent now are held by the hub. */
async function offlineSession(): Promise<{ sid: string; phone: Socket }> {
  const sid = randomUUID();
  await live.hub.store.registerSession({ namespace: 'alpha', registration: SessionRegistrationSchema.parse({ id: sid, cwd: '/work', launchKind: 'pty', status: 'idle' }), now: Date.now() });
  return { sid, phone: await connect({ nsp: '/web' }) };
}
const send = (phone: Socket, sid: string, text: string) => ack<{ prompt: Prompt }>(phone, 'prompt:send', { sessionId: sid, promptId: randomUUID(), text });

describe('prompts the hub holds for an offline runner', () => {
  it('are edited and withdrawn, every tab hears it, and the runner that comes back gets only the edited text', async () => {
    const { sid, phone } = await offlineSession();
    const otherTab = await connect({ nsp: '/web' });
    const kept = await send(phone, sid, 'first text');
    const gone = await send(phone, sid, 'never to be typed');
    if (!kept.ok || !gone.ok) throw new Error('not queued');
    expect(kept.prompt).toMatchObject({ status: 'queued', handedAt: null });

    const heardEdit = next<Prompt>(otherTab, 'prompt:updated', (p) => p.id === kept.prompt.id);
    expect(await ack(phone, 'prompt:edit', { sessionId: sid, promptId: kept.prompt.id, text: 'edited text' })).toMatchObject({
      ok: true,
      prompt: { text: 'edited text', status: 'queued', handedAt: null },
    });
    expect((await heardEdit).text).toBe('edited text');
    const heardWithdraw = next<Prompt>(otherTab, 'prompt:updated', (p) => p.id === gone.prompt.id);
    expect(await ack(phone, 'prompt:withdraw', { sessionId: sid, promptId: gone.prompt.id })).toMatchObject({ ok: true, prompt: { status: 'dropped', reason: 'withdrawn' } });
    expect((await heardWithdraw).status).toBe('dropped');

    const back = await connect({ nsp: '/cli' });
    const delivered: Array<{ promptId: string; text: string }> = [];
    back.on('prompt:deliver', (d: { promptId: string; text: string }) => delivered.push(d));
    const handedHeard = next<Prompt>(otherTab, 'prompt:updated', (p) => p.id === kept.prompt.id && p.handedAt != null);
    await live.register(back, { id: sid });
    await handedHeard;
    // Sent on the runner's socket before the register ack, so all there by now.
    expect(delivered).toEqual([expect.objectContaining({ promptId: kept.prompt.id, text: 'edited text' })]);

    // Handed over: too late for either.
    expect(await ack(phone, 'prompt:edit', { sessionId: sid, promptId: kept.prompt.id, text: 'later' })).toMatchObject({
      ok: false,
      code: 'conflict',
      error: expect.stringMatching(/already handed to the runner/),
    });
    expect(await ack(phone, 'prompt:withdraw', { sessionId: sid, promptId: kept.prompt.id })).toMatchObject({ ok: false, code: 'conflict' });
    // A withdrawn one stays withdrawn.
    expect(await ack(phone, 'prompt:edit', { sessionId: sid, promptId: gone.prompt.id, text: 'back?' })).toMatchObject({
      ok: false,
      code: 'conflict',
      error: 'the prompt is no longer queued (dropped: withdrawn)',
    });
  });

  it('hands a prompt sent while the runner is connected over at once: no edit then', async () => {
    const runner = await connect({ nsp: '/cli' });
    const phone = await connect({ nsp: '/web' });
    const sid = randomUUID();
    await live.register(runner, { id: sid });
    const deliver = next<{ text: string }>(runner, 'prompt:deliver');
    const sent = await send(phone, sid, 'now');
    if (!sent.ok) throw new Error('not queued');
    expect(sent.prompt.handedAt).toEqual(expect.any(Number));
    expect((await deliver).text).toBe('now');
    expect(await ack(phone, 'prompt:withdraw', { sessionId: sid, promptId: sent.prompt.id })).toMatchObject({ ok: false, code: 'conflict' });
  });

  it('refuses another namespace, unknown prompts, empty text and bad payloads', async () => {
    const { sid, phone } = await offlineSession();
    const sent = await send(phone, sid, 'mine');
    if (!sent.ok) throw new Error('not queued');
    const stranger = await connect({ nsp: '/web', token: await live.token('beta') });
    expect(await ack(stranger, 'prompt:edit', { sessionId: sid, promptId: sent.prompt.id, text: 'theirs' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(stranger, 'prompt:withdraw', { sessionId: sid, promptId: sent.prompt.id })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(phone, 'prompt:withdraw', { sessionId: sid, promptId: randomUUID() })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(phone, 'prompt:edit', { sessionId: randomUUID(), promptId: sent.prompt.id, text: 'x' })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await ack(phone, 'prompt:edit', { sessionId: sid, promptId: sent.prompt.id, text: '  ' })).toMatchObject({ ok: false, code: 'bad_request' });
    for (const bad of [{ sessionId: sid, promptId: 'not-a-uuid', text: 'x' }, { sessionId: sid, promptId: sent.prompt.id }, { sessionId: sid, promptId: sent.prompt.id, text: 'x'.repeat(200_001) }, null]) {
      expect(await ack(phone, 'prompt:edit', bad)).toMatchObject({ ok: false, code: 'bad_request' });
    }
    expect(await ack(phone, 'prompt:withdraw', { sessionId: 'nope' })).toMatchObject({ ok: false, code: 'bad_request' });
    // Nothing above changed it.
    const [stored] = await live.hub.store.listPrompts({ namespace: 'alpha', sessionId: sid });
    expect(stored).toMatchObject({ text: 'mine', status: 'queued', handedAt: null });
  });
});
