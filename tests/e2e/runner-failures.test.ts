// Spawn failures are visible and final: a missing claude binary, or claude exiting before its
// prompt ever appeared, fail fast with a clear error at the desk and a failed session on the hub.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCleanups } from '../harness/cleanups.ts';
import { startStage } from '../harness/world.ts';

const defer = useCleanups();

describe('spawn failures', () => {
  it('a missing claude binary fails fast and clearly, at the desk and on the hub', async () => {
    const { startRunner, startWatch } = await startStage(defer);
    const started = Date.now();
    const runner = startRunner({ env: { TETHER_CLAUDE_BIN: '/nonexistent/claude' } });
    const code = await runner.exited;
    expect(Date.now() - started).toBeLessThan(8000);
    expect(code).not.toBe(0);
    expect(runner.output()).toContain('TETHER_CLAUDE_BIN points at /nonexistent/claude');
    const phone = await startWatch(runner.sessionId);
    await phone.waitFor(() => phone.session()?.status === 'failed', { what: 'failed session' });
    expect(phone.session()?.failureReason).toContain('/nonexistent/claude');
  });

  it('claude not on PATH at all names the fix', async () => {
    const { startRunner } = await startStage(defer);
    const runner = startRunner({ hub: null, env: { PATH: '/usr/bin:/bin', TETHER_CLAUDE_BIN: '' } });
    expect(await runner.exited).not.toBe(0);
    expect(runner.output()).toContain('claude was not found on PATH');
  });

  it('claude exiting before its prompt appears is a failed session with claude\'s own error, no respawn', async () => {
    const { startRunner, startWatch } = await startStage(defer);
    const runner = startRunner({ args: ['--session-id', 'not-a-uuid'] });
    const code = await runner.exited;
    expect(code).not.toBe(0);
    expect(runner.output()).toContain('before its prompt appeared');
    expect(runner.output()).toMatch(/Invalid session ID/i);
    const phone = await startWatch(runner.sessionId);
    await phone.waitFor(() => phone.session()?.status === 'failed', { what: 'failed session' });
    expect(phone.session()?.failureReason).toMatch(/Invalid session ID/i);
  });

  // A person who closes the desk terminal while the agent is still starting wants it ended: the
  // early-exit failure is for an agent that dies on its own. (A CI run caught the SIGHUP test
  // killing tether between the prompt reaching the test's screen and the runner's own read of it.)
  it('a desk hangup before the prompt appears ends the session; it is not a failure', async () => {
    const { startRunner, startWatch, tempDir } = await startStage(defer);
    const slow = join(tempDir('tether-slow-agent-'), 'claude');
    // An agent still loading: it draws something and never a prompt.
    writeFileSync(slow, '#!/bin/sh\necho "loading..."\nexec sleep 60\n');
    chmodSync(slow, 0o755);
    const runner = startRunner({ env: { TETHER_CLAUDE_BIN: slow } });
    await runner.waitForScreen(/loading\.\.\./);
    const phone = await startWatch(runner.sessionId);
    await phone.waitFor(() => phone.session()?.status === 'starting', { what: 'the starting session' });
    runner.kill('SIGHUP');
    await runner.exited;
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    expect(phone.session()?.failureReason ?? null).toBeNull();
  });
});
