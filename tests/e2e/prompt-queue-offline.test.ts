// The queue on the phone (issue 42): prompts sent while the session's runner is offline are held by
// the hub, edited and withdrawn there, survive a hub restart, and once the runner is back only the
// edited text reaches claude (checked at the fake Messages API), never the old text or the withdrawn one.
//
//   runner ─► cuttable link ─► hub (restartable, one SQLite file) ◄─ phone
//   cut → hub restarted (it has never seen the runner: offline for sure) → send, edit, send, withdraw
//   → hub restarted → mend → the runner re-registers → hand-over → claude → fake API
import { describe, expect, it } from 'vitest';
import type { Prompt } from '@tether/shared';
import { lastUserText, startFakeAnthropic, text, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { startCuttableLink } from '../harness/cuttable-link.ts';
import { startRestartableHub } from '../harness/hub.ts';
import { chatText, startRunner, watchSession } from '../harness/runner.ts';
import { DESK_READY } from '../harness/world.ts';

const defer = useCleanups();

describe('prompts queued for an offline runner', () => {
  it('are edited and withdrawn on the hub, survive its restart, and only the edited text reaches the agent', async () => {
    const fake = await startFakeAnthropic({ script: [when(userSays(/edited while offline/), text('got the edited prompt'))] });
    defer(() => fake.stop());
    const hubProcess = await startRestartableHub(defer);
    const { hub } = hubProcess;
    const link = await startCuttableLink(hub.url);
    defer(() => link.stop());
    const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
    defer(() => sandbox.stop());
    const runner = startRunner({ hub: { url: link.url, token: hub.token }, sandbox });
    defer(() => runner.stop());
    const phone = await watchSession({ hub, sessionId: runner.sessionId });
    defer(() => phone.stop());
    await runner.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle' });
    /** The hub goes down and starts again on the same database; resolves once the phone is back on it. */
    const restartHub = async () => {
      const reconnected = new Promise<void>((resolve) => phone.socket.once('connect', () => resolve()));
      await hubProcess.kill('SIGKILL');
      await hubProcess.start();
      await reconnected;
    };

    // The runner loses the hub; a hub that starts afresh has never seen it.
    link.cut();
    await restartHub();

    const sessionId = runner.sessionId;
    const first = await phone.emit('prompt:send', { sessionId, promptId: crypto.randomUUID(), text: 'original text' });
    expect(first).toMatchObject({ ok: true, prompt: { status: 'queued', handedAt: null } });
    const kept = (first as unknown as { prompt: Prompt }).prompt;
    expect(await phone.emit('prompt:edit', { sessionId, promptId: kept.id, text: 'edited while offline' })).toMatchObject({ ok: true, prompt: { text: 'edited while offline' } });
    const second = (await phone.emit('prompt:send', { sessionId, promptId: crypto.randomUUID(), text: 'withdrawn text' })) as unknown as { prompt: Prompt };
    expect(await phone.emit('prompt:withdraw', { sessionId, promptId: second.prompt.id })).toMatchObject({ ok: true, prompt: { status: 'dropped', reason: 'withdrawn' } });

    // The hub restarts: the queue is in its database, and a tab that watches again is given it.
    await restartHub();
    const watched = (await phone.emit('session:watch', { sessionId })) as unknown as { prompts: Prompt[] };
    expect(watched.prompts.map((p) => [p.id, p.text, p.handedAt])).toEqual([[kept.id, 'edited while offline', null]]);

    // The runner comes back: it is handed the edited prompt, once, and nothing else.
    link.mend();
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('got the edited prompt')), { timeoutMs: 45_000, what: 'the reply to the edited prompt' });
    const sent = fake.mainRequests().map((r) => lastUserText(r));
    expect(sent.filter((t) => t.includes('edited while offline'))).toHaveLength(1);
    expect(sent.some((t) => t.includes('original text') || t.includes('withdrawn text'))).toBe(false);
    expect(phone.messages().filter((m) => m.role === 'user').map(chatText)).toEqual(['edited while offline']);
    // Handed over: too late to change it.
    expect(await phone.emit('prompt:edit', { sessionId, promptId: kept.id, text: 'too late' })).toMatchObject({ ok: false, code: 'conflict' });
  }, 120_000);
});
