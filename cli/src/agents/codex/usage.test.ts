// usage.test.ts: Codex's token usage from its rollout's token_count events. The lines are real: written
// by Codex 0.169.0 (and 0.160.0, which has no `last_usage_includes_reasoning`) against the fake
// Responses API (100 in / 10 out a response), a first turn and one more after `codex exec resume`.
import { describe, expect, it } from 'vitest';
import { createRolloutReader } from './rollout.ts';

const RATE = '"rate_limits":{"limit_id":"codex","limit_name":null,"primary":null,"secondary":null,"credits":null,"individual_limit":null,"spend_control_reached":null,"plan_type":null,"rate_limit_reached_type":null}';
const FIRST_0169 = `{"timestamp":"2026-11-25T05:30:12.656Z","ordinal":12,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110},"last_usage_includes_reasoning":false,"model_context_window":258400},${RATE}}}`;
const RESUMED_0160 = `{"timestamp":"2026-11-25T05:30:16.899Z","ordinal":22,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":200,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":220},"last_token_usage":{"input_tokens":100,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110},"model_context_window":258400},${RATE}}}`;
const TASK_COMPLETE = '{"timestamp":"2026-11-25T05:30:12.660Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"probe reply"}}';

const tokenCount = (info: unknown) => JSON.stringify({ timestamp: '2026-11-25T05:31:00.000Z', type: 'event_msg', payload: { type: 'token_count', info } });

describe('Codex rollout usage', () => {
  it('reads the running totals, the last request as the context, and the window Codex states', () => {
    const read = createRolloutReader().read([FIRST_0169, TASK_COMPLETE], {});
    expect(read.usage).toEqual({ inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, contextTokens: 110, contextWindow: 258_400 });
    expect(read.turnEnded).toBe(true);
    expect(read.messages).toEqual([]);
  });

  it('takes the totals as Codex writes them after a resume (they go on from the history), once per read', () => {
    const reader = createRolloutReader();
    expect(reader.read([FIRST_0169, RESUMED_0160], {}).usage).toEqual({ inputTokens: 200, cachedInputTokens: 0, outputTokens: 20, contextTokens: 110, contextWindow: 258_400 });
    // A resume re-reading from a saved offset sees only the new line; the totals are Codex's own.
    expect(createRolloutReader().read([RESUMED_0160], {}).usage).toMatchObject({ inputTokens: 200, outputTokens: 20 });
  });

  it('says nothing when a token_count repeats the totals or carries only rate limits (info null)', () => {
    const reader = createRolloutReader();
    reader.read([FIRST_0169], {});
    expect(reader.read([FIRST_0169, tokenCount(null), TASK_COMPLETE], {}).usage).toBeUndefined();
  });

  it('cached input is part of input; an unknown window is null; nonsense numbers read as zero', () => {
    const usage = createRolloutReader().read(
      [tokenCount({ total_token_usage: { input_tokens: 5000, cached_input_tokens: 4000, output_tokens: 'x' }, last_token_usage: { input_tokens: 900, output_tokens: -3 }, model_context_window: 0 })],
      {},
    ).usage;
    expect(usage).toEqual({ inputTokens: 5000, cachedInputTokens: 4000, outputTokens: 0, contextTokens: 900, contextWindow: null });
  });
});
