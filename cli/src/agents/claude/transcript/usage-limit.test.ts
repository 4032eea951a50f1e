import { describe, expect, it } from 'vitest';
import { createClaudeLimit } from './usage-limit.ts';

// Lines as claude wrote them against the fake Messages API (shortened to the fields read).
const limit332 = JSON.stringify({
  type: 'assistant',
  isSidechain: false,
  timestamp: '2026-12-06T10:19:07.522Z',
  message: { model: '<synthetic>', content: [{ type: 'text', text: "You've hit your 5-hour limit · resets 10:20am (UTC)" }] },
  error: 'rate_limit',
  apiError: 'usage_limit_reached',
  apiErrorParams: { rate_limit_info: { status: 'rejected', resetsAt: 1796552407, rateLimitType: 'five_hour' } },
});
const limit197 = JSON.stringify({
  type: 'assistant',
  isSidechain: false,
  timestamp: '2026-12-06T11:01:18.916Z',
  message: { model: '<synthetic>', content: [{ type: 'text', text: "You've hit your session limit · resets 11:02am (UTC)" }] },
  error: 'rate_limit',
  isApiErrorMessage: true,
});
const apiKey429 = JSON.stringify({ type: 'assistant', message: { model: '<synthetic>', content: [{ type: 'text', text: 'API Error: Request rejected (429) · Rate limited' }] }, error: 'rate_limit' });
const answer = JSON.stringify({ type: 'assistant', message: { model: 'claude-opus-5', content: [{ type: 'text', text: 'went on' }] } });

describe('claude usage limit', () => {
  it('reads the reset 2.1.332 states, and the limit is over at the next real reply', () => {
    const limit = createClaudeLimit();
    expect(limit.take([limit332])).toEqual({ resetsAt: 1796552407000 });
    expect(limit.take([limit332])).toBeUndefined();
    expect(limit.take([answer])).toBeNull();
    expect(limit.take([answer])).toBeUndefined();
  });

  it('reads 2.1.197\'s reset from its text, on the runner\'s clock, to the minute', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      expect(createClaudeLimit().take([limit197])).toEqual({ resetsAt: Date.parse('2026-12-06T11:02:00.000Z') });
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it('an API key\'s 429 (claude read no limit) and a subagent\'s line say nothing', () => {
    const limit = createClaudeLimit();
    expect(limit.take([apiKey429])).toBeUndefined();
    expect(limit.take([JSON.stringify({ ...JSON.parse(limit332), isSidechain: true })])).toBeUndefined();
  });
});
