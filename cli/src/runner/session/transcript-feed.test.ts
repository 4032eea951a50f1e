import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessageInput } from '@tether/shared';
import type { Agent } from '../../agents/agent.ts';
import { steadyPoll } from '../../pace/pace.ts';
import { createTranscriptFeed } from './transcript-feed.ts';
import { tempDirs } from '../../testing/temp-dirs.ts';

/** An agent whose transcript is one `{"id","text"}` line a message, and whose reader counts the lines
 *  it was given (what the usage and prompt matching of a real reader would see twice). */
function lineAgent() {
  const seen: string[] = [];
  const agent = {
    transcript: () => ({
      read: (lines: string[]) => {
        const messages: ChatMessageInput[] = lines.map((line) => {
          const { id, text } = JSON.parse(line) as { id: string; text: string };
          seen.push(id);
          return { id, role: 'assistant', content: [{ type: 'text', text }], createdAt: 1 };
        });
        return { messages, model: null, planFile: null, commands: [] };
      },
    }),
    isRejectedToolResult: () => false,
  } as unknown as Agent;
  return { agent, seen };
}

describe('transcript feed', () => {
  const tempDir = tempDirs('feed');

  function start() {
    const dir = tempDir();
    const { agent, seen } = lineAgent();
    const sent: string[] = [];
    const feed = createTranscriptFeed({
      agent,
      log: () => {},
      poll: steadyPoll,
      append: (messages) => sent.push(...messages.map((m) => m.id)),
      matchPrompt: () => null,
      onToolResult: () => {},
      onInterrupted: () => {},
      onModel: () => {},
      onUsage: () => {},
      onLimit: () => {},
      onCommandFinished: () => {},
      onRead: () => {},
      onSubagentRead: () => {},
    });
    return { dir, feed, sent, seen };
  }
  const line = (id: string) => `${JSON.stringify({ id, text: `message ${id}` })}\n`;

  it('the file it tails, named again (a compaction), goes on where it was: nothing is read or sent twice', async () => {
    const { dir, feed, sent, seen } = start();
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, line('m1') + line('m2'));
    expect(feed.follow({ path, fromOffset: 0 })).toBe(true);
    await feed.poke();
    expect(sent).toEqual(['m1', 'm2']);
    const offset = feed.offset();

    expect(feed.follow({ path, fromOffset: 0 })).toBe(false);
    expect(feed.offset()).toBe(offset);
    appendFileSync(path, line('m3'));
    await feed.poke();
    expect(sent).toEqual(['m1', 'm2', 'm3']);
    expect(seen).toEqual(['m1', 'm2', 'm3']);
    feed.stop();
  });

  it('another file (a new session after /clear) is read from its start', async () => {
    const { dir, feed, sent } = start();
    const first = join(dir, 'first.jsonl');
    const second = join(dir, 'second.jsonl');
    writeFileSync(first, line('a1'));
    writeFileSync(second, line('b1') + line('b2'));
    feed.follow({ path: first, fromOffset: 0 });
    await feed.poke();
    expect(feed.follow({ path: second, fromOffset: 0 })).toBe(true);
    await feed.poke();
    expect(sent).toEqual(['a1', 'b1', 'b2']);
    expect(feed.path()).toBe(second);
    feed.stop();
  });
});
