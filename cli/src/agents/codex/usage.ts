// usage.ts: the tokens a Codex session used, from its rollout's `token_count` events. Codex writes
// running totals itself, one event after each model response (checked on 0.160.0 and 0.169.0):
//
//   {type:"event_msg", payload:{type:"token_count", info:{
//      total_token_usage: {input_tokens, cached_input_tokens, output_tokens, reasoning_output_tokens, total_tokens},
//      last_token_usage:  {…the same, for the last request},
//      model_context_window: 258400 }, rate_limits:{…}}}
//
// `info` is null in an event that only reports rate limits. The totals go on across `codex resume`
// (the resumed process starts from the rollout's last totals: 110 → 220 for two 110-token turns),
// so they are read as they are, never summed here. cached_input_tokens is part of input_tokens and
// reasoning part of output_tokens (the Responses API's accounting); the context in use is the last
// request's input plus output.
import { SessionUsageSchema, type SessionUsage } from '@tether/shared';

type Usage = { input_tokens?: unknown; cached_input_tokens?: unknown; output_tokens?: unknown };

const tokens = (value: unknown): number => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0);

/** The usage one rollout line states, or null when it is not a token_count with its info. */
export function codexUsageOf(line: { type?: unknown; payload?: Record<string, unknown> }): SessionUsage | null {
  const p = line.payload;
  if (line.type !== 'event_msg' || p?.type !== 'token_count' || !p.info || typeof p.info !== 'object') return null;
  const info = p.info as { total_token_usage?: Usage; last_token_usage?: Usage; model_context_window?: unknown };
  const total = info.total_token_usage;
  if (!total || typeof total !== 'object') return null;
  const last = info.last_token_usage ?? {};
  const window = tokens(info.model_context_window);
  const parsed = SessionUsageSchema.safeParse({
    inputTokens: tokens(total.input_tokens),
    cachedInputTokens: Math.min(tokens(total.cached_input_tokens), tokens(total.input_tokens)),
    outputTokens: tokens(total.output_tokens),
    contextTokens: tokens(last.input_tokens) + tokens(last.output_tokens),
    contextWindow: window > 0 ? window : null,
  });
  return parsed.success ? parsed.data : null;
}

/** Whether two readings say the same. */
export function sameCodexUsage(a: SessionUsage | null, b: SessionUsage): boolean {
  return a !== null && (Object.keys(b) as Array<keyof SessionUsage>).every((key) => a[key] === b[key]);
}
