// usage-limit.ts: Codex's usage limit, from its rollout. Checked against the fake Responses API on
// 0.160.0 and 0.171.0 (docs/decisions/usage-limits.md): a 429 whose body's error type is
// `usage_limit_reached` (with an API key too) ends the turn with
//   {type:"event_msg", payload:{type:"token_count", info:null, rate_limits:{primary:{used_percent:100, resets_at:<s>}, secondary:{…}}}}
//   {type:"event_msg", payload:{type:"task_complete", error:{codex_error_info:"usage_limit_exceeded", message:"…try again at 3:00 PM."}}}
// The reset is the latest of the windows used up. Codex does not wait: the turn is over.
import { createLimitFollower, resetSeconds, type LimitSign } from '../usage-limit.ts';

type Window = { used_percent?: unknown; resets_at?: unknown } | null | undefined;
type Payload = { type?: unknown; rate_limits?: { primary?: Window; secondary?: Window } | null; error?: { codex_error_info?: unknown } | null; role?: unknown };

/** The latest reset among the windows a rate_limits snapshot says are used up. */
function usedUpUntil(limits: Payload['rate_limits']): number | null {
  let until: number | null = null;
  for (const window of [limits?.primary, limits?.secondary]) {
    if (!window || typeof window.used_percent !== 'number' || window.used_percent < 100) continue;
    const at = resetSeconds(window.resets_at);
    if (at !== null && (until === null || at > until)) until = at;
  }
  return until;
}

export function createCodexLimit() {
  let usedUp: number | null = null;
  const sign = (rec: { type?: unknown; payload?: unknown }): LimitSign => {
    const p = rec.payload as Payload | undefined;
    if (!p) return null;
    if (rec.type === 'event_msg' && p.type === 'token_count' && p.rate_limits) {
      usedUp = usedUpUntil(p.rate_limits);
      return null;
    }
    if (rec.type === 'event_msg' && p.type === 'task_complete') {
      return p.error?.codex_error_info === 'usage_limit_exceeded' && usedUp !== null ? { resetsAt: usedUp } : null;
    }
    return rec.type === 'response_item' && p.type === 'message' && p.role === 'assistant' ? 'over' : null;
  };
  return createLimitFollower(sign);
}
