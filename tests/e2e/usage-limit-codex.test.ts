// Codex at its usage limit, offline: the fake Responses API answers the first prompt with a 429
// `usage_limit_reached` and the rate-limit headers, resetting a few seconds later
// (fixtures/fake-openai/usage-limit.ts). Codex ends the turn and does not wait: the phone sees the
// reset time, and tether continues the session once after it (the person switched it on for the
// session, or the namespace's default is on and the session has no choice of its own), nobody at the
// desk. Codex's own switch-model question at the limit is answered from the phone.
import { describe, expect, it } from 'vitest';
import { lastUserText, text, userSays, when } from '../fixtures/fake-openai/index.ts';
import { usageLimit } from '../fixtures/fake-openai/usage-limit.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { startCodexWorld } from '../harness/codex-world.ts';
import { answerLimitDialog, expectWentOnOnce, limitClock } from '../harness/usage-limit.ts';

const defer = useCleanups();

/** The two ways the person asks for the continue: on the session, or as the namespace's default. */
const CHOICES = [
  { how: 'switched on for the session', own: { on: true, prompt: 'please continue' }, choose: (phone: Phone, sessionId: string) => phone.emit('session:limit-continue', { sessionId, choice: { on: true, prompt: 'please continue' } }) },
  { how: "the namespace's default, the session choosing nothing", own: null, choose: (phone: Phone) => phone.emit('unattended:set', { limitContinue: { on: true, prompt: 'please continue' } }) },
];
type Phone = Awaited<ReturnType<typeof startCodexWorld>>['phone'];

describe('Codex at its usage limit', () => {
  it.each(CHOICES)('the phone shows the reset; tether continues the session once after it, with nobody at the desk ($how)', async ({ choose, own }) => {
    const clock = limitClock({ inMs: 4_000 });
    const { fake, runner, phone } = await startCodexWorld(defer, {
      script: [when(userSays('do the work'), () => usageLimit(clock.start())), (request) => text(`went on after: ${lastUserText(request)}`)],
      hub: { limits: { marginMs: 500, agentGraceMs: 60_000 } },
    });
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle session' });
    expect((await choose(phone, runner.sessionId)).ok).toBe(true);
    expect((await phone.send('do the work')).ok).toBe(true);

    const limit = await phone.waitFor(() => phone.session()?.limit, { timeoutMs: 30_000, what: 'the limit on the session' });
    expect(limit).toEqual({ resetsAt: Math.ceil(clock.resetsAt() / 1000) * 1000, agentResumes: false, continued: false, held: null });
    const main = () => fake.requests.filter((r) => r.kind === 'main');
    // Codex asks whether to switch to a cheaper model (unless the person once chose "never show
    // again"): a dialog on the phone, the session waits for the person. Answered after the reset, the
    // continue goes as soon as the session is idle again, once.
    await answerLimitDialog(phone, { title: /rate limits/i, pick: /^Keep current model$/, after: clock.resetsAt(), what: "Codex's switch-model question" });
    expect(main()).toHaveLength(1);

    await expectWentOnOnce({ phone, reply: 'went on after: please continue', resetsAt: clock.resetsAt(), mainRequests: main });
    expect(phone.messages().filter((m) => m.role === 'user' && chatText(m) === 'please continue')).toHaveLength(1);
    expect(phone.session()?.limitContinue ?? null).toEqual(own);
  }, 120_000);
});
