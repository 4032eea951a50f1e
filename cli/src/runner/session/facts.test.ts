// session/facts.test.ts: the token usage the runner reports: one patch per new reading, none for a
// reading equal to what the hub was told (the resumed session's saved usage included).
import { describe, expect, it } from 'vitest';
import type { SessionUsage } from '@tether/shared';
import type { HubLink } from '../../hub-link/link.ts';
import { createSessionFacts, type SessionState } from './facts.ts';

const USAGE: SessionUsage = { inputTokens: 1800, cachedInputTokens: 0, outputTokens: 8, contextTokens: 1808, contextWindow: null };

function facts(usage: SessionUsage | null) {
  const pushed: Array<{ event: string; payload: unknown }> = [];
  const link = { push: (event: string, payload: unknown) => pushed.push({ event, payload }) } as unknown as HubLink;
  const state: SessionState = { id: 's1', status: 'idle', agentSessionId: null, model: null, permissionMode: 'default', usage };
  return { pushed, state, facts: createSessionFacts({ state, link: () => link }) };
}

describe('session facts: usage', () => {
  it('patches a new reading once, and not again while it stays the same', () => {
    const { pushed, state, facts: f } = facts(null);
    f.followUsage(USAGE);
    f.followUsage({ ...USAGE });
    f.followUsage({ ...USAGE, outputTokens: 9 });
    expect(pushed).toEqual([
      { event: 'session:update', payload: { sessionId: 's1', patch: { usage: USAGE } } },
      { event: 'session:update', payload: { sessionId: 's1', patch: { usage: { ...USAGE, outputTokens: 9 } } } },
    ]);
    expect(state.usage).toEqual({ ...USAGE, outputTokens: 9 });
  });

  it('a resumed session that reads what it had saved says nothing new', () => {
    const { pushed, facts: f } = facts(USAGE);
    f.followUsage({ ...USAGE });
    expect(pushed).toEqual([]);
  });
});
