// Reads session files written by the real Gemini CLI 0.58.0 and 0.61.0 (transcript-fixtures/: a shell
// call allowed, a slow reply, a file write refused at its dialog, so the turn was cancelled and the
// history written again) and small hand-made lines for what those do not show.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGeminiTranscriptReader, typedText } from './transcript.ts';

const linesOf = (version: string) => readFileSync(join(import.meta.dirname, 'transcript-fixtures', `gemini-${version}-session.jsonl`), 'utf8').split('\n').filter(Boolean);
const kinds = (messages: ReturnType<ReturnType<typeof createGeminiTranscriptReader>['read']>['messages']) =>
  messages.map((m) => `${m.role}:${m.content.map((c) => (c.type === 'text' ? `text ${c.text}` : c.type === 'tool_use' ? `tool_use ${c.name}` : c.type === 'tool_result' ? `tool_result${c.isError ? ' error' : ''}` : c.type)).join(',')}`);

describe.each(['0.58.0', '0.61.0'])('the session file of Gemini CLI %s', (version) => {
  it('reads prompts, replies, tool calls and results once, and the cancel as an interrupt', () => {
    const reader = createGeminiTranscriptReader();
    const read = reader.read(linesOf(version), {});
    expect(kinds(read.messages)).toEqual([
      'user:text run it',
      'assistant:tool_use Bash',
      'user:tool_result',
      'assistant:text It ran.',
      'user:text slow',
      'assistant:text slow answer',
      'user:text write b',
      'assistant:tool_use Write',
      'user:tool_result error',
      'user:interrupt',
    ]);
    const bash = read.messages[1]!.content[0]!;
    expect(bash).toMatchObject({ type: 'tool_use', input: { command: 'touch made.txt && echo hi-there', description: 'say hi' } });
    expect(read.messages.every((m) => m.agentSessionId === read.messages[0]!.agentSessionId && typeof m.agentSessionId === 'string')).toBe(true);
  });

  it('counts each reply once, however often its record is written', () => {
    const read = createGeminiTranscriptReader().read(linesOf(version), {});
    // Four replies of 100 in, 10 out (the fake's usage): the tool call's record was written twice.
    expect(read.usage).toEqual({ inputTokens: 400, cachedInputTokens: 0, outputTokens: 40, contextTokens: 110, contextWindow: null });
  });

  it('yields nothing new when the same lines are read again line by line', () => {
    const reader = createGeminiTranscriptReader();
    const first = reader.read(linesOf(version), {}).messages.length;
    let again = 0;
    for (const line of linesOf(version)) again += reader.read([line], {}).messages.length;
    expect(first).toBe(10);
    expect(again).toBe(0);
  });
});

it('matches a prompt to the queued one it delivered, and counts on from a resumed usage', () => {
  const reader = createGeminiTranscriptReader({ usage: { inputTokens: 1000, cachedInputTokens: 10, outputTokens: 100, contextTokens: 500, contextWindow: null } });
  const read = reader.read(
    [
      JSON.stringify({ id: 'u1', timestamp: '2026-11-27T08:00:00.000Z', type: 'user', content: [{ text: 'hello' }] }),
      JSON.stringify({ id: 'g1', timestamp: '2026-11-27T08:00:01.000Z', type: 'gemini', content: 'hi', thoughts: [{ subject: 'Greeting', description: 'say hi back' }], tokens: { input: 50, output: 5, cached: 20, thoughts: 3 } }),
      'not json',
    ],
    { matchPrompt: (text) => (text === 'hello' ? 'prompt-1' : null) },
  );
  expect(read.messages.map((m) => [m.id, m.promptId, m.content[0]!.type])).toEqual([
    ['u1', 'prompt-1', 'text'],
    ['g1:thinking', null, 'thinking'],
    ['g1', null, 'text'],
  ]);
  expect(read.usage).toEqual({ inputTokens: 1050, cachedInputTokens: 30, outputTokens: 108, contextTokens: 55, contextWindow: null });
});

describe('a prompt with attachments, as Gemini records it', () => {
  const folder = '/tmp/tether-attachments-AbC123';
  const id = '4e5fd88b-f2e6-4f95-baf0-bcd5625083ae';
  it('is read back as typed: the folder-relative path made whole, the referenced files block dropped', () => {
    const recorded = `@${id}/1-IMG_0042.png @${id}/2-notes.txt what is in this picture?\n\n--- Content from referenced files ---\nContent from @${id}/2-notes.txt:\nhello\n--- End of content ---`;
    expect(typedText(recorded, folder)).toBe(`@${folder}/${id}/1-IMG_0042.png @${folder}/${id}/2-notes.txt what is in this picture?`);
  });
  it('leaves a prompt without that block as it is, and expands nothing without a folder', () => {
    expect(typedText(`@${id}/1-a.png hi`, folder)).toBe(`@${id}/1-a.png hi`);
    expect(typedText(`@${id}/1-a.png hi\n\n--- Content from referenced files ---\n--- End of content ---`, null)).toBe(`@${id}/1-a.png hi`);
    expect(typedText('plain words', folder)).toBe('plain words');
  });
});
