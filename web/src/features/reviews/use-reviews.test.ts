import { describe, expect, it } from 'vitest';
import type { Review } from '@tether/shared';
import { upsertReview } from './use-reviews.ts';

const review = (id: string, extra: Partial<Review> = {}): Review => ({
  id,
  parentId: 'p',
  agent: 'codex',
  state: 'reviewing',
  focus: '',
  finalAnswer: null,
  createdAt: 1,
  updatedAt: 1,
  ...extra,
});

describe('upsertReview', () => {
  it('adds in creation order, replaces with a newer copy, keeps a newer one over an older copy', () => {
    const a = review('a', { createdAt: 2 });
    const b = review('b', { createdAt: 1 });
    expect(upsertReview([a], b).map((r) => r.id)).toEqual(['b', 'a']);
    const answered = { ...a, state: 'answered' as const, finalAnswer: 'ok', updatedAt: 5 };
    expect(upsertReview([a], answered)).toEqual([answered]);
    expect(upsertReview([answered], a)).toEqual([answered]);
  });
});
