// `tether claude --resume <id>` continues the same tether session: the chat goes on where it was,
// nothing from the first run is sent again as new, and the new turn lands after the old ones; the
// token usage the fake API stated reaches the hub exactly, and goes on counting after the resume.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionUsage } from '@tether/shared';
import { reply, text, thinking, userSays, when, type FakeAnthropic } from '../fixtures/fake-anthropic/index.ts';
import { useCleanups } from '../harness/cleanups.ts';
import { quitWithCtrlC } from '../harness/desk.ts';
import { chatText } from '../harness/runner.ts';
import { DESK_READY, firstAnsweredTurn, startStage } from '../harness/world.ts';

const defer = useCleanups();

/** What the fake API's completed main-loop replies stated, as the session's usage: every reply's
 *  tokens summed (cache reads are input, and its cached part), the last one's as the context. */
function usageTheFakeSent(fake: FakeAnthropic): SessionUsage {
  const sent = fake.requests.filter((r) => r.kind === 'main' && r.outcome === 'completed').map((r) => r.usage!);
  const input = (u: Record<string, number>) => u.input_tokens! + u.cache_creation_input_tokens! + u.cache_read_input_tokens!;
  const last = sent.at(-1)!;
  return {
    inputTokens: sent.reduce((sum, u) => sum + input(u), 0),
    cachedInputTokens: sent.reduce((sum, u) => sum + u.cache_read_input_tokens!, 0),
    outputTokens: sent.reduce((sum, u) => sum + u.output_tokens!, 0),
    contextTokens: input(last) + last.output_tokens!,
    contextWindow: null,
  };
}

describe('resume', () => {
  it('tether claude --resume <id> continues the same chat without duplicates', async () => {
    const { fake, startRunner, startWatch, tempDir } = await startStage(defer, {
      script: [
        // Thinking and text: claude writes a line for each, both with the message's usage (counted once).
        when(userSays(/first question/), reply(thinking('Weighing the first question.'), text('first answer'))),
        when(userSays(/second question/), { ...text('second answer'), cacheReadTokens: 700 }),
      ],
    });
    const home = tempDir('tether-resume-home-');

    const { first, phone, claudeId } = await firstAnsweredTurn({ startRunner, startWatch }, home);
    expect(claudeId).toBeTruthy();
    const firstUsage = usageTheFakeSent(fake);
    // claude wrote the reply's thinking and text as two lines of one message id, each with its usage:
    // the hub's totals (equal to what the fake sent) counted it once.
    const { transcriptPath } = JSON.parse(readFileSync(join(home, 'claude-sessions', `${claudeId}.json`), 'utf8')) as { transcriptPath: string };
    const replies = readFileSync(transcriptPath, 'utf8').split('\n').filter((line) => line.includes('"usage"')).map((line) => JSON.parse(line)).filter((r) => r.type === 'assistant');
    expect(replies.length).toBeGreaterThan(new Set(replies.map((r) => r.message.id)).size);
    expect(firstUsage.outputTokens).toBeGreaterThan(0);
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === firstUsage.outputTokens, { what: 'the first turn\'s usage' });
    expect(phone.session()?.usage).toEqual(firstUsage);
    // Ctrl-C during the turn would interrupt it instead of exiting: wait for the turn to end.
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'idle after the first answer' });
    await first.waitForScreen(DESK_READY);
    expect(await quitWithCtrlC(first)).toBe(0);
    await phone.waitFor(() => phone.session()?.status === 'ended', { what: 'ended' });
    const before = phone.messages().map((m) => m.id);

    const second = startRunner({ home, args: ['--resume', claudeId], sessionId: first.sessionId });
    await second.waitForScreen(DESK_READY);
    await phone.waitFor(() => phone.session()?.status === 'idle', { what: 'same session live again' });
    const sent = await phone.send('second question');
    expect(sent.ok).toBe(true);
    await phone.waitFor(() => phone.messages().find((m) => chatText(m).includes('second answer')), { what: 'second answer' });
    const after = phone.messages();
    expect(after.slice(0, before.length).map((m) => m.id)).toEqual(before);
    expect(after.filter((m) => m.role === 'user').map(chatText)).toEqual(['first question', 'second question']);
    expect(new Set(after.map((m) => m.id)).size).toBe(after.length);
    expect(phone.duplicates()).toBe(0);
    expect(phone.session()?.agentSessionId).toBe(claudeId);
    // Both runs' replies, though the second runner read only from the saved offset on.
    const total = usageTheFakeSent(fake);
    expect(total.cachedInputTokens).toBe(700);
    await phone.waitFor(() => phone.session()?.usage?.outputTokens === total.outputTokens, { what: 'the usage of both runs' });
    expect(phone.session()?.usage).toEqual(total);
  }, 60_000);
});
