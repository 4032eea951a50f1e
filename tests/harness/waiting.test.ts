// waiting.test.ts: the harness's announced waits resolve with the probe's first value once a change
// makes it true, give up at once with `failed`'s message, and time out with `timedOut`'s, read then.
import { describe, expect, it } from 'vitest';
import { createWaits } from './waiting.ts';

describe('createWaits', () => {
  it('resolves with the first value the probe gives after a change; 0 and the empty string count', async () => {
    const waits = createWaits();
    let value: number | null = null;
    const waited = waits.waitFor({ probe: () => value, timeoutMs: 1000, timedOut: () => 'never' });
    value = 0;
    waits.changed();
    expect(await waited).toBe(0);
    expect(await waits.waitFor({ probe: () => '', timeoutMs: 1000, timedOut: () => 'never' })).toBe('');
  });

  it('gives up with the failure once there is one, and times out with the state at the time', async () => {
    const waits = createWaits();
    let exited = false;
    const failing = waits.waitFor({ probe: () => false, failed: () => (exited ? 'it exited' : null), timeoutMs: 1000, timedOut: () => 'timed out' });
    exited = true;
    waits.changed();
    await expect(failing).rejects.toThrow('it exited');
    let state = 'before';
    const timing = waits.waitFor({ probe: () => null, timeoutMs: 20, timedOut: () => `timed out ${state}` });
    state = 'after';
    await expect(timing).rejects.toThrow('timed out after');
  });
});
