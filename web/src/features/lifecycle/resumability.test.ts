// resumability.test.ts: the reasons under a disabled Resume, and when it is enabled.
import { describe, expect, it } from 'vitest';
import { resumability } from './resumability.ts';

const machine = { id: 'm1', name: 'laptop', online: true };

describe('resumability', () => {
  it('is ok on an online machine, and names each reason it is not', () => {
    const session = { claudeSessionId: 'c1', machineId: 'm1' };
    expect(resumability(session, [machine])).toEqual({ ok: true, machineName: 'laptop' });
    expect(resumability(session, [{ ...machine, online: false }])).toEqual({ ok: false, reason: 'laptop is offline: start tether daemon there to resume this session.' });
    expect(resumability(session, [])).toMatchObject({ ok: false, reason: expect.stringContaining('no longer registered') });
    expect(resumability({ ...session, claudeSessionId: null }, [machine])).toMatchObject({ ok: false, reason: expect.stringContaining('nothing to resume') });
    expect(resumability({ ...session, machineId: null }, [machine])).toMatchObject({ ok: false, reason: expect.stringContaining('claude --resume c1') });
  });

  it('names the session\'s own agent (Codex) in its reasons', () => {
    const session = { agent: 'codex' as const, claudeSessionId: 't1', machineId: 'm1' };
    expect(resumability({ ...session, claudeSessionId: null }, [machine])).toEqual({ ok: false, reason: 'Codex never started a conversation in this session, so there is nothing to resume.' });
    expect(resumability({ ...session, machineId: null }, [machine])).toEqual({ ok: false, reason: 'This session was started at a desk: resume it there with tether codex resume t1.' });
  });
});
