// usage.ts: the tokens a claude session used, from the `message.usage` its transcript's assistant
// lines carry (the Messages API's usage of the request that produced them).
// In: transcript lines (main and subagent files alike). Out: the session's SessionUsage after them,
// when they changed it.
//
// One API message is written as one line per content block (thinking, text, tool_use), every line
// with the same `message.id` and the same usage; so a message id is counted once. If a later line of
// the same id states more (a usage written mid-stream), only the difference is added.
// Subagent lines (`isSidechain`: their own files, or older builds' main file) count in the totals,
// since the session spent them, but not in the context, which is the main conversation's.
// claude's `input_tokens` leaves out the cache: input here is input + cache writes + cache reads,
// cached input is the cache reads. claude states no context window (contextWindow stays as seeded).
import { SessionUsageSchema, type SessionUsage } from '@tether/shared';

/** Message ids remembered for the once-per-message rule: a message's lines are written together, so
 *  only the last few can still repeat; the bound keeps a day-long session's reader small. */
const COUNTED_KEPT = 256;

type Counts = { input: number; cached: number; output: number };

const tokens = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null);

/** The counts of one assistant line, or null when the line states no usable usage. */
function lineCounts(line: string): { id: string; sidechain: boolean; counts: Counts } | null {
  // Only assistant lines with a usage: skip the parse for every other line.
  if (!line.includes('"usage"') || !line.includes('"assistant"')) return null;
  let rec: { type?: unknown; isSidechain?: unknown; message?: { id?: unknown; model?: unknown; usage?: Record<string, unknown> } };
  try {
    rec = JSON.parse(line);
  } catch {
    return null; // the chat parser reports malformed lines
  }
  const message = rec?.message;
  const usage = message?.usage;
  // `<synthetic>` lines (after Esc, a resume's filler) were never sent to the API: all zeros.
  if (rec.type !== 'assistant' || !usage || typeof usage !== 'object' || message.model === '<synthetic>' || typeof message.id !== 'string') return null;
  const input = tokens(usage.input_tokens);
  const output = tokens(usage.output_tokens);
  if (input === null || output === null) return null;
  const written = tokens(usage.cache_creation_input_tokens) ?? 0;
  const read = tokens(usage.cache_read_input_tokens) ?? 0;
  return { id: message.id, sidechain: rec.isSidechain === true, counts: { input: input + written + read, cached: read, output } };
}

export function createClaudeUsage(seed: SessionUsage | null) {
  let usage: SessionUsage | null = seed;
  const counted = new Map<string, Counts>();
  return {
    /** The session's usage after `lines`, when they changed it. */
    take(lines: readonly string[]): SessionUsage | undefined {
      let next = usage;
      for (const line of lines) {
        const found = lineCounts(line);
        if (!found) continue;
        const before = counted.get(found.id) ?? { input: 0, cached: 0, output: 0 };
        const seen: Counts = { input: Math.max(before.input, found.counts.input), cached: Math.max(before.cached, found.counts.cached), output: Math.max(before.output, found.counts.output) };
        counted.delete(found.id);
        counted.set(found.id, seen);
        if (counted.size > COUNTED_KEPT) counted.delete(counted.keys().next().value!);
        const base = next ?? { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, contextTokens: 0, contextWindow: null };
        next = {
          inputTokens: base.inputTokens + seen.input - before.input,
          cachedInputTokens: base.cachedInputTokens + seen.cached - before.cached,
          outputTokens: base.outputTokens + seen.output - before.output,
          contextTokens: found.sidechain ? base.contextTokens : seen.input + seen.output,
          contextWindow: base.contextWindow,
        };
      }
      if (next === usage) return undefined;
      // Past the schema's caps (a corrupt line's numbers): keep what was, rather than send a patch the
      // hub would refuse.
      const checked = SessionUsageSchema.safeParse(next);
      if (!checked.success) return undefined;
      const changed = !usage || (Object.keys(next!) as Array<keyof SessionUsage>).some((key) => next![key] !== usage![key]);
      usage = checked.data;
      return changed ? usage : undefined;
    },
  };
}
