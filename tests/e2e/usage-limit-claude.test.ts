// claude at its usage limit, offline: the fake Messages API answers the first prompt with the 429
// and headers a subscription login reads (fixtures/fake-anthropic/usage-limit.ts), resetting a few
// seconds later. The phone sees the reset time; after it the session goes on once, nobody at the
// desk: tether's continue (the person switched it on), or claude's own where it waits it out
// (2.1.332's terminal; tether's grace is made short here, so whichever comes first goes, and a prompt
// typed by tether cancels claude's own continue). At the floor (2.1.197, no continue of its own) the
// reset is read from claude's text, to the minute, and claude's rate-limit options are answered from
// the phone.
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_ENV, lastUserText, text, usageLimit, userSays, when } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, startWorld } from '../harness/world.ts';
import { answerLimitDialog, expectWentOnOnce, limitClock } from '../harness/usage-limit.ts';

const defer = useCleanups();

describe('claude at its usage limit', () => {
  it('the phone shows the reset; after it the session goes on once, with nobody at the desk', async () => {
    const clock = limitClock({ inMs: 4_000 });
    const { fake, runner, phone } = await startWorld(defer, {
      // Whatever comes after the limit (tether's continue, or claude's own) is answered.
      script: [when(userSays('do the work'), () => usageLimit(clock.start())), (request) => text(`went on after: ${lastUserText(request)}`)],
      hub: { limits: { marginMs: 500, agentGraceMs: 3_000 } },
      runner: { env: SUBSCRIPTION_ENV },
      ready: DESK_READY,
    });
    expect((await phone.emit('session:limit-continue', { sessionId: runner.sessionId, choice: { on: true, prompt: 'continue' } })).ok).toBe(true);
    expect((await phone.send('do the work')).ok).toBe(true);

    const limit = await phone.waitFor(() => phone.session()?.limit, { timeoutMs: 30_000, what: 'the limit on the session' });
    // claude states the reset in whole seconds (2.1.332), or to the minute in its text (2.1.197).
    expect(Math.abs(limit.resetsAt - clock.resetsAt())).toBeLessThan(61_000);
    expect(limit.continued).toBe(false);
    const main = () => fake.requests.filter((r) => r.kind === 'main').map((r) => ({ ...r, lastUserText: r.body ? lastUserText(r.body) : undefined }));
    if (!limit.agentResumes) {
      // 2.1.197 opens /rate-limit-options at the limit: a dialog on the phone, the session waits for
      // the person. Answered after the reset, the continue goes as soon as the session is idle again.
      await answerLimitDialog(phone, { title: /what do you want to do/i, pick: /stop and wait/i, after: Math.max(clock.resetsAt(), limit.resetsAt), what: 'the rate-limit options' });
    }
    expect(main()).toHaveLength(1);

    await expectWentOnOnce({ phone, reply: 'went on after', resetsAt: clock.resetsAt(), mainRequests: main });
    expect(phone.messages().filter((m) => m.role === 'user' && chatText(m) === 'continue').length).toBeLessThanOrEqual(1);
  }, 180_000);
});
