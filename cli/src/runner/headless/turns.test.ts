import { describe, expect, it } from 'vitest';
import { createHeadlessTurns } from './turns.ts';

function turns(canSend = true) {
  const reports: string[] = [];
  const sent: string[] = [];
  const made = createHeadlessTurns<string>({
    report: (id, status, reason) => reports.push(`${id}:${status}${reason ? `:${reason}` : ''}`),
    send: (item) => sent.push(item.content),
    canSend: () => canSend,
    onTurnSent: () => reports.push('thinking'),
  });
  return { made, reports, sent };
}

describe('createHeadlessTurns', () => {
  it('a turn the agent took from elsewhere (its TUI joined at the desk) holds the hub\'s prompt until it is over', () => {
    const { made, sent } = turns();
    made.becameReady();
    made.turnStarted();
    expect(made.busy()).toBe(true);
    made.claim('p1');
    made.enqueue({ promptId: 'p1', text: 'one', content: 'one' });
    expect(sent).toEqual([]);
    made.turnEnded();
    made.pump();
    expect(sent).toEqual(['one']);
  });

  it('sends one turn at a time once ready, each prompt once, confirmed by the transcript', () => {
    const { made, reports, sent } = turns();
    expect(made.claim('p1')).toBe(true);
    expect(made.claim('p1')).toBe(false);
    made.enqueue({ promptId: 'p1', text: 'one', content: 'one' });
    made.enqueue({ promptId: 'p2', text: 'two', content: 'two' });
    expect(sent).toEqual([]);
    made.becameReady();
    expect(sent).toEqual(['one']);
    expect(made.busy()).toBe(true);
    made.pump();
    expect(sent).toEqual(['one']);
    expect(made.matchPrompt('one')).toBe('p1');
    made.turnEnded();
    made.pump();
    expect(sent).toEqual(['one', 'two']);
    expect(reports).toEqual(['p1:typing', 'thinking', 'p1:delivered', 'p2:typing', 'thinking']);
  });

  it('gives back what it holds when the session ends: sent prompts returned, queued ones dropped', () => {
    const { made, reports } = turns();
    made.becameReady();
    made.enqueue({ promptId: 'p1', text: 'one', content: 'one' });
    made.enqueue({ promptId: 'p2', text: 'two', content: 'two' });
    made.close({ sent: 'ended', queued: 'never sent' });
    expect(reports.slice(-2)).toEqual(['p1:returned:ended', 'p2:dropped:never sent']);
  });

  it('waits while nothing can carry a turn', () => {
    const { made, sent } = turns(false);
    made.becameReady();
    made.enqueue({ promptId: 'p1', text: 'one', content: 'one' });
    expect(sent).toEqual([]);
  });
});
