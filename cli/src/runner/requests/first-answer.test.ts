import { describe, expect, it } from 'vitest';
import { firstAnswer } from './first-answer.ts';

describe('firstAnswer', () => {
  it('carries the first outcome and drops every later one', async () => {
    const answer = firstAnswer<string>();
    expect(answer.settle('desk')).toBe(true);
    expect(answer.settle('phone')).toBe(false);
    await expect(answer.settled).resolves.toBe('desk');
  });

  it('is pending until an outcome is given', async () => {
    const answer = firstAnswer<number>();
    const seen = await Promise.race([answer.settled, Bun.sleep(20).then(() => 'pending')]);
    expect(seen).toBe('pending');
    answer.settle(7);
    await expect(answer.settled).resolves.toBe(7);
  });
});
