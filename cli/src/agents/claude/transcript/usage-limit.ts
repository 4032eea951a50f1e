// usage-limit.ts: claude's usage limit, from its transcript. Checked against the fake Messages API
// (docs/decisions/usage-limits.md): with a subscription login (CLAUDE_CODE_OAUTH_TOKEN), or from
// 2.1.332 a gateway token, claude reads the `anthropic-ratelimit-unified-*` headers of a 429 and
// writes a `<synthetic>` assistant line
//   {type:"assistant", message:{model:"<synthetic>", content:[{text:"You've hit your 5-hour limit · resets 3pm"}]},
//    error:"rate_limit", apiError:"usage_limit_reached", apiErrorParams:{rate_limit_info:{status:"rejected", resetsAt:<s>}}}
// (2.1.332); 2.1.197 writes only `error:"rate_limit"` and the text "You've hit your session limit ·
// resets 11:02am (UTC)": the time is read from the text, in the runner's own time zone (claude runs
// beside it and prints its zone), to the minute. With an API key claude does not read the headers
// ("API Error: Request rejected (429)", no limit). Any reply of a real model after it means the limit
// is over.
import { createLimitFollower, resetSeconds, type LimitSign } from '../../usage-limit.ts';

type Line = {
  type?: unknown;
  timestamp?: unknown;
  error?: unknown;
  isSidechain?: unknown;
  apiError?: unknown;
  apiErrorParams?: { rate_limit_info?: { resetsAt?: unknown } };
  message?: { model?: unknown; content?: unknown };
};

const RESETS_AT_TEXT = /\bresets (\d{1,2})(?::(\d{2}))?\s*(am|pm)\b/i;

/** The reset a 2.1.197 limit line names in its text ("resets 11:02am"): the next such time of day
 *  after the line was written, on the runner's clock. */
function resetFromText(rec: Line): number | null {
  const content = Array.isArray(rec.message?.content) ? (rec.message.content as Array<{ text?: unknown }>) : [];
  const text = content.map((block) => (typeof block.text === 'string' ? block.text : '')).join(' ');
  const found = RESETS_AT_TEXT.exec(text);
  const written = typeof rec.timestamp === 'string' ? Date.parse(rec.timestamp) : NaN;
  if (!found || !Number.isFinite(written)) return null;
  const hour = (Number(found[1]) % 12) + (found[3]!.toLowerCase() === 'pm' ? 12 : 0);
  const at = new Date(written);
  at.setHours(hour, Number(found[2] ?? 0), 0, 0);
  if (at.getTime() <= written - 60_000) at.setDate(at.getDate() + 1);
  return at.getTime();
}

function claudeLimitSign(line: string): LimitSign {
  if (!line.includes('"assistant"')) return null;
  let rec: Line;
  try {
    rec = JSON.parse(line);
  } catch {
    return null; // the chat parser reports malformed lines
  }
  if (rec.type !== 'assistant' || rec.isSidechain === true) return null;
  if (rec.apiError === 'usage_limit_reached' || rec.error === 'rate_limit') {
    const resetsAt = resetSeconds(rec.apiErrorParams?.rate_limit_info?.resetsAt) ?? resetFromText(rec);
    return resetsAt === null ? null : { resetsAt };
  }
  return rec.message?.model === '<synthetic>' ? null : 'over';
}

export const createClaudeLimit = () => createLimitFollower(claudeLimitSign);
