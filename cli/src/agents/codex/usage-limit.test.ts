import { describe, expect, it } from 'vitest';
import { createCodexLimit } from './usage-limit.ts';

// Events as Codex 0.160.0 and 0.171.0 wrote them against the fake Responses API (shortened).
const rateLimits = (primary: number, secondary: number) => ({
  type: 'event_msg',
  payload: { type: 'token_count', info: null, rate_limits: { primary: { used_percent: primary, window_minutes: 300, resets_at: 1796552526 }, secondary: { used_percent: secondary, window_minutes: 10080, resets_at: 1796638926 } } },
});
const failed = { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: null, error: { message: 'You’ve hit your usage limit. … try again at 10:22 AM.', codex_error_info: 'usage_limit_exceeded' } } };
const answered = { type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'went on' }] } };

describe('Codex usage limit', () => {
  it('a turn failed at the limit: the reset of the window used up; a reply ends it', () => {
    const limit = createCodexLimit();
    expect(limit.take([rateLimits(100, 40), failed])).toEqual({ resetsAt: 1796552526000 });
    expect(limit.take([answered])).toBeNull();
  });

  it('both windows used up: the later reset', () => {
    expect(createCodexLimit().take([rateLimits(100, 100), failed])).toEqual({ resetsAt: 1796638926000 });
  });

  it('rate limits below 100% or a turn that did not fail at the limit say nothing', () => {
    const limit = createCodexLimit();
    expect(limit.take([rateLimits(80, 40), failed])).toBeUndefined();
    expect(limit.take([rateLimits(100, 40), { type: 'event_msg', payload: { type: 'task_complete', error: null } }])).toBeUndefined();
  });
});
