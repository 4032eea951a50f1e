// size-caps.ts: keeps one chat message well under the hub's MAX_PAYLOAD_BYTES (1 MiB).
// A transcript line can be many MB (Read of a big file, Write of a generated file, a chatty Bash), and a
// message the hub refuses would block the runner's outbox forever. So the parser clips, visibly.
// Invariant: a clipped string keeps its head and says how much was dropped; small values pass unchanged.
import { MAX_PAYLOAD_BYTES } from '@tether/shared';

/** Longest text, thinking or tool output kept per block: 100k chars ≤ ~400 KB as UTF-8 JSON, so even a
 *  tool_use plus its clipped input stays under 1 MiB; no phone reader scrolls further anyway. */
export const MAX_BLOCK_CHARS = 100_000;
/** Longest single string inside a tool_use input (Write `content`, Edit `new_string`). */
export const MAX_INPUT_STRING_CHARS = 20_000;
/** `toolUseResult` is kept only when this small: it exists for structured answers (AskUserQuestion,
 *  Edit patches), and for Read/Bash it just repeats the (already clipped) tool output. */
export const MAX_STRUCTURED_CHARS = 16_384;

// The caps above must leave room for the envelope and escaping inside one payload.
if (MAX_BLOCK_CHARS * 4 > MAX_PAYLOAD_BYTES / 2) throw new Error('size-caps: MAX_BLOCK_CHARS too large');

export function clipText(text: string, max = MAX_BLOCK_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${text.length - max} more characters not shown]`;
}

/** A tool input with every over-long string clipped; a small input is returned as is (no copy). */
export function clipToolInput(input: unknown): unknown {
  return fitsJsonBudget(input, MAX_INPUT_STRING_CHARS) ? input : clipDeep(input);
}

function clipDeep(input: unknown): unknown {
  if (typeof input === 'string') return clipText(input, MAX_INPUT_STRING_CHARS);
  if (Array.isArray(input)) return input.map(clipDeep);
  if (typeof input === 'object' && input !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) out[key] = clipDeep(value);
    return out;
  }
  return input;
}

/** True when `value` serialises to at most `budget` characters; stops walking as soon as it is over. */
export function fitsJsonBudget(value: unknown, budget = MAX_STRUCTURED_CHARS): boolean {
  let left = budget;
  const walk = (v: unknown): boolean => {
    if (typeof v === 'string') left -= v.length + 2;
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) left -= 8;
    else if (Array.isArray(v)) {
      left -= 2;
      for (const item of v) if (!walk(item)) return false;
    } else if (typeof v === 'object') {
      left -= 2;
      for (const key in v as object) {
        left -= key.length + 4;
        if (!walk((v as Record<string, unknown>)[key])) return false;
      }
    }
    return left >= 0;
  };
  return walk(value);
}
