// usage.test.ts: claude's token usage from real transcript lines (fixtures/real-*.jsonl, written by
// claude against the fake API) and hand-made variants of them: each message id counted once, cache
// reads and writes in the input, subagents in the totals but not the context, a resume counting on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAgent } from '../agent.ts';
import { createClaudeUsage } from './usage.ts';

const lines = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', `${name}.jsonl`), 'utf8').split('\n').filter(Boolean);

/** A real assistant line with another message id and usage. */
function variant(line: string, o: { id: string; usage: Record<string, number>; sidechain?: boolean }): string {
  const rec = JSON.parse(line);
  rec.message.id = o.id;
  rec.message.usage = { ...rec.message.usage, ...o.usage };
  if (o.sidechain) rec.isSidechain = true;
  return JSON.stringify(rec);
}

describe('claude transcript usage', () => {
  it('counts each API message once, though claude writes a line per content block', () => {
    // real-tool-use: msg …e1e88aba on two lines (text + tool_use, 1807 in / 22 out each), then 1899/11, 1969/11.
    const read = claudeAgent.transcript().read(lines('real-tool-use'), {});
    expect(read.usage).toEqual({ inputTokens: 1807 + 1899 + 1969, cachedInputTokens: 0, outputTokens: 22 + 11 + 11, contextTokens: 1969 + 11, contextWindow: null });
  });

  it('skips the <synthetic> reply (never sent to the API) and says nothing when lines change nothing', () => {
    const reader = claudeAgent.transcript();
    expect(reader.read(lines('real-interrupted'), {}).usage).toEqual({ inputTokens: 1865, cachedInputTokens: 0, outputTokens: 6, contextTokens: 1871, contextWindow: null });
    expect(reader.read(lines('real-interrupted').filter((l) => !l.includes('"assistant"')), {}).usage).toBeUndefined();
  });

  it('a message split over two reads is counted once; a later line of it stating more adds the difference', () => {
    const [first, second] = lines('real-thinking-text').filter((l) => l.includes('"assistant"'));
    const usage = createClaudeUsage(null);
    expect(usage.take([first!])).toMatchObject({ inputTokens: 1802, outputTokens: 15 });
    expect(usage.take([second!])).toBeUndefined();
    const grown = JSON.parse(second!);
    grown.message.usage.output_tokens = 40;
    expect(usage.take([JSON.stringify(grown)])).toMatchObject({ inputTokens: 1802, outputTokens: 40, contextTokens: 1842 });
  });

  it('cache reads and writes are input; cache reads are the cached part', () => {
    const [line] = lines('real-simple-text').filter((l) => l.includes('"assistant"'));
    const cached = variant(line!, { id: 'msg_cached', usage: { input_tokens: 10, cache_creation_input_tokens: 300, cache_read_input_tokens: 5000, output_tokens: 7 } });
    expect(createClaudeUsage(null).take([cached])).toEqual({ inputTokens: 5310, cachedInputTokens: 5000, outputTokens: 7, contextTokens: 5317, contextWindow: null });
  });

  it('subagent (sidechain) lines count in the totals, not in the main conversation\'s context', () => {
    const usage = createClaudeUsage(null);
    usage.take(lines('real-simple-text'));
    // hand-sidechain: two subagent messages of 812 in / 23 out.
    expect(usage.take(lines('hand-sidechain'))).toEqual({ inputTokens: 1800 + 812 * 2, cachedInputTokens: 0, outputTokens: 8 + 23 * 2, contextTokens: 1808, contextWindow: null });
  });

  it('a resume counts on from the saved usage; malformed or negative usage is left out', () => {
    const seed = { inputTokens: 1_000_000, cachedInputTokens: 900_000, outputTokens: 50_000, contextTokens: 90_000, contextWindow: null };
    const [line] = lines('real-simple-text').filter((l) => l.includes('"assistant"'));
    const bad = variant(line!, { id: 'msg_bad', usage: { input_tokens: -5, output_tokens: 3 } });
    const read = claudeAgent.transcript({ usage: seed }).read(['{not json', bad, ...lines('real-simple-text')], {});
    expect(read.usage).toEqual({ inputTokens: 1_001_800, cachedInputTokens: 900_000, outputTokens: 50_008, contextTokens: 1808, contextWindow: null });
  });
});
