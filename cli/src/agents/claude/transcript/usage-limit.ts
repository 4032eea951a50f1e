// usage-limit.ts: claude's usage limit, from its transcript. Checked against the fake Messages API
// (docs/decisions/usage-limits.md): with a subscription login (CLAUDE_CODE_OAUTH_TOKEN), or from
// 2.1.332 a gateway token, claude reads the `anthropic-ratelimit-unified-*` headers of a 429 and
// writes a `<synthetic>` assistant line
//   {type:"assistant", message:{model:"<synthetic>", content:[{text:"You've hit your 5-hour limit · resets 3pm"}]},
//    error:"rate_limit", apiError:"usage_limit_reached", apiErrorParams:{rate_limit_info:{status:"rejected", resetsAt:<s>}}}
// (2.1.197 and 2.1.332 alike); with an API key it does not read them ("API Error: Request rejected
// (429)", no apiError). Any reply of a real model after it means the limit is over.
import { createLimitFollower, resetSeconds, type LimitSign } from '../../usage-limit.ts';

type Line = {
  type?: unknown;
  isSidechain?: unknown;
  apiError?: unknown;
  apiErrorParams?: { rate_limit_info?: { resetsAt?: unknown } };
  message?: { model?: unknown };
};

function claudeLimitSign(line: string): LimitSign {
  if (!line.includes('"assistant"')) return null;
  let rec: Line;
  try {
    rec = JSON.parse(line);
  } catch {
    return null; // the chat parser reports malformed lines
  }
  if (rec.type !== 'assistant' || rec.isSidechain === true) return null;
  if (rec.apiError === 'usage_limit_reached') {
    const resetsAt = resetSeconds(rec.apiErrorParams?.rate_limit_info?.resetsAt);
    return resetsAt === null ? null : { resetsAt };
  }
  return rec.message?.model === '<synthetic>' ? null : 'over';
}

export const createClaudeLimit = () => createLimitFollower(claudeLimitSign);
