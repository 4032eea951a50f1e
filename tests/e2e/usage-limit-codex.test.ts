// Codex at its usage limit, offline: the fake Responses API answers the first prompt with a 429
// `usage_limit_reached` and the rate-limit headers, resetting a few seconds later
// (fixtures/fake-openai/usage-limit.ts). Codex ends the turn and does not wait: the phone sees the
// reset time, and tether continues the session once after it (the person switched it on), nobody at
// the desk. Codex's own switch-model question at the limit is answered from the phone.
import { describe, expect, it } from 'vitest';
import { lastUserText, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { usageLimit } from '../fixtures/fake-openai/usage-limit.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startCodexWorld } from '../harness/codex-world.ts';

const defer = useCleanups();

describe('Codex at its usage limit', () => {
  it('the phone shows the reset; tether continues the session once after it, with nobody at the desk', async () => {
    let resetsAt = 0;
    const { fake, runner, phone } = await startCodexWorld(defer, {
      script: [
        when(userSays('do the work'), () => {
          resetsAt = Date.now() + 4_000;
          return usageLimit(resetsAt);
        }),
        (request) => text(`went on after: ${lastUserText(request)}`),
      ],
      hub: { limits: { marginMs: 500, agentGraceMs: 60_000 } },
    });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect((await phone.emit('session:limit-continue', { sessionId: runner.sessionId, choice: { on: true, prompt: 'please continue' } })).ok).toBe(true);
    expect((await phone.send('do the work')).ok).toBe(true);

    const limit = await phone.waitFor(() => phone.session()?.limit, { timeoutMs: 30_000, what: 'the limit on the session' });
    expect(limit).toEqual({ resetsAt: Math.ceil(resetsAt / 1000) * 1000, agentResumes: false, continued: false });
    const main = () => fake.requests.filter((r) => r.kind === 'main');
    expect(main()).toHaveLength(1);
    // Codex asks whether to switch to a cheaper model (unless the person once chose "never show
    // again"): a dialog on the phone, the session waits for the person. Answered after the reset, the
    // continue goes as soon as the session is idle again, once.
    const nudge = await phone.waitFor(() => phone.requested.find((r) => r.kind === 'dialog' && /rate limits/i.test(String(r.toolInput.title))), { what: "Codex's switch-model dialog" });
    await Bun.sleep(Math.max(0, resetsAt + 1_500 - Date.now()));
    expect(main()).toHaveLength(1);
    const keep = (nudge.toolInput.options as Array<{ key: string; label: string }>).find((o) => /^Keep current model$/.test(o.label.trim()));
    expect((await phone.emit('approval:answer', { requestId: nudge.id, answer: { decision: 'allow', choice: keep!.key } })).ok).toBe(true);

    const reply = await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('went on after: please continue')), { timeoutMs: 60_000, what: 'the continue answered' });
    expect(reply.createdAt).toBeGreaterThanOrEqual(resetsAt);
    await phone.waitFor(() => phone.session()?.limit === null, { what: 'the limit cleared by the reply' });
    await Bun.sleep(3_000);
    expect(main()).toHaveLength(2);
    expect(phone.messages().filter((m) => m.role === 'user' && chatText(m) === 'please continue')).toHaveLength(1);
  }, 120_000);
});
