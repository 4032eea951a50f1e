// Golden tests: every fixtures/X.jsonl → fixtures/X.expected.json, compared exactly.
// `hand-*` fixtures follow CLAUDE-CODE.md §5 by hand; `real-*` are lines claude 2.1.197 actually wrote.
// Optional X.prompts.json maps prompt text → remote prompt id (what the runner's matchPrompt knows).
// Regenerate after a deliberate change: UPDATE_GOLDEN=1 bun --bun vitest run cli/src/transcript  (then review the diff!)
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatMessageInputSchema } from '@tether/shared';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine, parseTranscriptLines, type TranscriptParseContext } from './parse.ts';
import { MAX_BLOCK_CHARS, MAX_STRUCTURED_CHARS } from '../../../transcript/size-caps.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures');
/** Lines without a timestamp get this, so expected files are stable. */
const NOW = 1_700_000_000_000;

function parseFile(name: string) {
  const promptsFile = join(FIXTURES, `${name}.prompts.json`);
  const prompts: Record<string, string> = existsSync(promptsFile) ? JSON.parse(readFileSync(promptsFile, 'utf8')) : {};
  const bad: string[] = [];
  const ctx: TranscriptParseContext = {
    now: () => NOW,
    matchPrompt: (text) => prompts[text] ?? null,
    onBadLine: (reason) => bad.push(reason),
  };
  const lines = readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8').split('\n');
  return { messages: lines.flatMap((line) => parseTranscriptLine(line, ctx)), bad };
}

const names = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.slice(0, -'.jsonl'.length))
  .sort();

describe('parseTranscriptLine golden fixtures', () => {
  it('has fixtures', () => expect(names.length).toBeGreaterThan(0));
  for (const name of names) {
    it(name, () => {
      const { messages } = parseFile(name);
      const expectedFile = join(FIXTURES, `${name}.expected.json`);
      if (process.env.UPDATE_GOLDEN) writeFileSync(expectedFile, `${JSON.stringify(messages, null, 2)}\n`);
      expect(JSON.parse(JSON.stringify(messages))).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
      for (const m of messages) expect(ChatMessageInputSchema.safeParse(m).success).toBe(true);
      // Message ids are line uuids, so they are unique within a file.
      expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    });
  }

  it('reports malformed lines through onBadLine and ignores unknown types silently', () => {
    const { bad } = parseFile('hand-commands-and-noise');
    expect(bad).toEqual(['not JSON', 'missing or invalid uuid', 'missing or invalid uuid', 'not an object']);
  });
});

describe('parseTranscriptLines', () => {
  it('puts the prompt before the reply when claude flushed the reply first (real capture)', () => {
    for (const name of ['real-thinking-text', 'real-tool-use']) {
      const lines = readFileSync(join(FIXTURES, `${name}.jsonl`), 'utf8').split('\n');
      const perLine = lines.flatMap((l) => parseTranscriptLine(l));
      expect(perLine[0]?.role).toBe('assistant'); // the file really has this order
      const batch = parseTranscriptLines(lines);
      expect(batch[0]?.role).toBe('user');
      expect(batch.map((m) => m.createdAt)).toEqual([...batch.map((m) => m.createdAt)].sort((a, b) => a - b));
      expect(new Set(batch.map((m) => m.id))).toEqual(new Set(perLine.map((m) => m.id)));
    }
  });

  it('keeps file order when it is already in time order', () => {
    const lines = readFileSync(join(FIXTURES, 'hand-tool-use.jsonl'), 'utf8').split('\n');
    expect(parseTranscriptLines(lines).map((m) => m.id)).toEqual(lines.flatMap((l) => parseTranscriptLine(l)).map((m) => m.id));
  });
});

const base = {
  parentUuid: null,
  isSidechain: false,
  uuid: '11111111-2222-4333-8444-555555555555',
  timestamp: '2025-11-22T00:00:00.000Z',
  sessionId: 'sess-1',
};

describe('parseTranscriptLine edge cases', () => {
  it('accepts an already-parsed object', () => {
    const out = parseTranscriptLine({ ...base, type: 'user', message: { role: 'user', content: 'hi' } });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'hi' }], agentSessionId: 'sess-1' });
  });

  it('never throws, whatever the input', () => {
    const weird: unknown[] = ['', '   ', 'null', '42', '"s"', '{', '{"type":"user"}', '{"type":"assistant","message":7}',
      { type: 'user', message: { content: [null, 1, { type: 'tool_result' }] } },
      { ...base, type: 'assistant', message: { content: [{ type: 'tool_use', id: 5, name: 'x' }] } },
      { ...base, type: 'user', message: { content: { not: 'an array' } } },
      { ...base, type: 'system', subtype: 'local_command', content: 5 }];
    for (const w of weird) expect(() => parseTranscriptLine(w as string)).not.toThrow();
  });

  it('hides the filler reply claude adds on resume after a stopped turn, as its own UI does; a real reply saying the same is kept', () => {
    const filler = { ...base, type: 'assistant', message: { model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }] } };
    expect(parseTranscriptLine(JSON.stringify(filler))).toEqual([]);
    expect(parseTranscriptLine({ ...filler, message: { ...filler.message, content: 'No response requested.' } })).toEqual([]);
    // Partial text of an interrupted reply is synthetic too, and stays: it was on screen.
    expect(parseTranscriptLine({ ...filler, message: { ...filler.message, content: [{ type: 'text', text: 'Once upon' }] } })).toHaveLength(1);
    expect(parseTranscriptLine({ ...filler, message: { ...filler.message, model: 'claude-sonnet-4-5' } })).toHaveLength(1);
  });

  it('falls back to ctx.now for a missing or bad timestamp', () => {
    const line = { ...base, timestamp: 'yesterday', type: 'user', message: { content: 'x' } };
    expect(parseTranscriptLine(line, { now: () => 42 })[0]?.createdAt).toBe(42);
  });

  it('does not link sidechain or tool_result lines to remote prompts', () => {
    const matchPrompt = () => '0b6c4f4e-8a51-4d3c-9f0e-2c7b1a9d8e34';
    const side = { ...base, isSidechain: true, agentId: 'a1', type: 'user', message: { content: 'x' } };
    expect(parseTranscriptLine(side, { matchPrompt })[0]?.promptId).toBeNull();
    const result = { ...base, type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] } };
    expect(parseTranscriptLine(result, { matchPrompt })[0]?.promptId).toBeNull();
  });

  it('clips huge tool output and drops a huge toolUseResult, staying valid', () => {
    const big = 'x'.repeat(MAX_BLOCK_CHARS * 3);
    const line = {
      ...base,
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: big }] },
      toolUseResult: { stdout: 'y'.repeat(MAX_STRUCTURED_CHARS * 2) },
    };
    const [msg] = parseTranscriptLine(JSON.stringify(line));
    const block = msg?.content[0];
    expect(block?.type).toBe('tool_result');
    if (block?.type !== 'tool_result') return;
    expect(block.content.length).toBeLessThan(MAX_BLOCK_CHARS + 100);
    expect(block.content).toMatch(/more characters not shown\]$/);
    expect(block.structured).toBeUndefined();
    expect(JSON.stringify(msg).length).toBeLessThan(1024 * 1024);
  });

  it('clips long strings inside a tool_use input', () => {
    const line = {
      ...base,
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 't', name: 'Write', input: { file_path: '/a', content: 'z'.repeat(2_000_000) } }] },
    };
    const [msg] = parseTranscriptLine(line);
    expect(JSON.stringify(msg).length).toBeLessThan(100_000);
  });
});
