// Spawn failures are visible and final: a missing claude binary, or claude exiting before its
// prompt ever appeared, fail fast with a clear error at the desk and a failed session on the hub.
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { createClaudeSandbox } from '../harness/claude.ts';
import { startHub } from '../harness/hub.ts';
import { startRunner, watchSession } from '../harness/runner.ts';

let cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanups.reverse()) await fn();
  cleanups = [];
});

async function setup() {
  const fake = await startFakeAnthropic();
  cleanups.push(() => fake.stop());
  const hub = await startHub();
  cleanups.push(() => hub.stop());
  const sandbox = createClaudeSandbox({ fakeApiUrl: fake.url });
  cleanups.push(() => sandbox.stop());
  return { hub, sandbox };
}

describe('spawn failures', () => {
  it('a missing claude binary fails fast and clearly, at the desk and on the hub', async () => {
    const { hub, sandbox } = await setup();
    const started = Date.now();
    const runner = startRunner({ hub, sandbox, env: { TETHER_CLAUDE_BIN: '/nonexistent/claude' } });
    cleanups.push(() => runner.stop());
    const code = await runner.exited;
    expect(Date.now() - started).toBeLessThan(8000);
    expect(code).not.toBe(0);
    expect(runner.output()).toContain('TETHER_CLAUDE_BIN points at /nonexistent/claude');
    const phone = await watchSession({ hub, sessionId: runner.sessionId });
    cleanups.push(() => phone.stop());
    await phone.waitFor(() => phone.session()?.status === 'failed', { what: 'failed session' });
    expect(phone.session()?.failureReason).toContain('/nonexistent/claude');
  });

  it('claude not on PATH at all names the fix', async () => {
    const { sandbox } = await setup();
    const runner = startRunner({ sandbox, env: { PATH: '/usr/bin:/bin', TETHER_CLAUDE_BIN: '' } });
    cleanups.push(() => runner.stop());
    expect(await runner.exited).not.toBe(0);
    expect(runner.output()).toContain('claude was not found on PATH');
  });

  it('claude exiting before its prompt appears is a failed session with claude\'s own error, no respawn', async () => {
    const { hub, sandbox } = await setup();
    const runner = startRunner({ hub, sandbox, args: ['--session-id', 'not-a-uuid'] });
    cleanups.push(() => runner.stop());
    const code = await runner.exited;
    expect(code).not.toBe(0);
    expect(runner.output()).toContain('before its prompt appeared');
    expect(runner.output()).toMatch(/Invalid session ID/i);
    const phone = await watchSession({ hub, sessionId: runner.sessionId });
    cleanups.push(() => phone.stop());
    await phone.waitFor(() => phone.session()?.status === 'failed', { what: 'failed session' });
    expect(phone.session()?.failureReason).toMatch(/Invalid session ID/i);
  });
});
