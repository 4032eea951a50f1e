// stop.test.ts: what `tether stop` makes of its review flags and of a person's answer (the hub's
// refusal and the flags end to end: tests/e2e/review-stop.test.ts).
import { describe, expect, it } from 'vitest';
import { CommandError } from './command.ts';
import { choiceFromAnswer, liveReviewsLines, reviewsChoice } from './stop.ts';

describe('tether stop and live reviews', () => {
  it('reads --end-reviews / --keep-reviews; both is a usage error', () => {
    expect(reviewsChoice({})).toBeUndefined();
    expect(reviewsChoice({ 'end-reviews': true })).toBe('end');
    expect(reviewsChoice({ 'keep-reviews': true })).toBe('keep');
    expect(() => reviewsChoice({ 'end-reviews': true, 'keep-reviews': true })).toThrow(new CommandError('--end-reviews and --keep-reviews exclude each other', 2));
  });

  it('takes e/end and k/keep from a person; anything else, or no answer, cancels', () => {
    expect(['e', 'END', ' end\n'].map(choiceFromAnswer)).toEqual(['end', 'end', 'end']);
    expect(['k', 'Keep'].map(choiceFromAnswer)).toEqual(['keep', 'keep']);
    expect(['', 'y', 'ending'].map(choiceFromAnswer)).toEqual([null, null, null]);
  });

  it('lists each live review on its own line: id, agent, state, the first line of its focus', () => {
    const id = '0b7e3c1a-1111-4222-8333-444455556666';
    expect(liveReviewsLines([{ id, agent: 'codex', state: 'reviewing', focus: 'errors\nand more' }, { id, agent: 'claude', state: 'answered', focus: '' }])).toBe(
      `  ${id}  codex · reviewing · focus: errors\n  ${id}  claude · answered`,
    );
  });
});
