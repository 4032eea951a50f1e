// resumability.test.ts: the reasons under a disabled Resume, and when it is enabled.
import { describe, expect, it } from 'vitest';
import type { AgentCapabilities } from '@tether/shared';
import { resumability, resumeCarries } from './resumability.ts';

/** What a Codex runner states (cli/src/agents/codex/capabilities.ts), as far as these reasons read it. */
const codex: AgentCapabilities = {
  displayName: 'Codex',
  description: '',
  models: { offered: [], typed: true, example: null, switchableIn: ['headless'] },
  effort: { levels: ['low', 'medium', 'high', 'xhigh'], maps: { max: 'xhigh' }, switchableIn: ['headless'] },
  modes: { values: [], switchableIn: [] },
  resumeCommand: 'tether codex resume {id}',
  relays: { requests: ['permission'], editedInput: false, sessionRules: false },
};

const machine = { id: 'm1', name: 'laptop', online: true };

describe('resumability', () => {
  it('is ok on an online machine, and names each reason it is not', () => {
    const session = { agentSessionId: 'c1', machineId: 'm1' };
    expect(resumability(session, [machine])).toEqual({ ok: true, machineName: 'laptop' });
    expect(resumability(session, [{ ...machine, online: false }])).toEqual({ ok: false, reason: 'laptop is offline: start tether daemon on laptop to resume this session.' });
    expect(resumability(session, [])).toMatchObject({ ok: false, reason: expect.stringContaining('no longer registered') });
    expect(resumability({ ...session, agentSessionId: null }, [machine])).toMatchObject({ ok: false, reason: expect.stringContaining('nothing to resume') });
    // A runner older than capabilities named no resume command: the reason names the session.
    expect(resumability({ ...session, machineId: null }, [machine])).toEqual({ ok: false, reason: "This session was started at a desk without tether daemon: resume it there (Claude's session c1), or run tether daemon on that machine so its desk sessions can be resumed from here." });
  });

  it('names the session\'s own agent (Codex) and its resume command, from its capabilities', () => {
    const session = { agent: 'codex' as const, capabilities: codex, agentSessionId: 't1', machineId: 'm1' };
    expect(resumability({ ...session, agentSessionId: null }, [machine])).toEqual({ ok: false, reason: 'Codex never started a conversation in this session, so there is nothing to resume.' });
    expect(resumability({ ...session, machineId: null }, [machine])).toEqual({ ok: false, reason: 'This session was started at a desk without tether daemon: resume it there with tether codex resume t1, or run tether daemon on that machine so its desk sessions can be resumed from here.' });
  });
});

describe('resumeCarries', () => {
  it("names the model, a mode that is not the default and the added folders a resume gives again; nothing for the agent's defaults", () => {
    expect(resumeCarries({ model: null, permissionMode: 'default' })).toBeNull();
    expect(resumeCarries({ model: null, permissionMode: 'default', addedDirs: [] })).toBeNull();
    expect(resumeCarries({ model: 'opus', permissionMode: 'plan', addedDirs: ['/srv/lib'] })).toBe('With opus, plan mode, the added folder /srv/lib.');
    expect(resumeCarries({ model: null, permissionMode: 'default', addedDirs: ['/a', '/b'] })).toBe('With the added folders /a, /b.');
  });
});
