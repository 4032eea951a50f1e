// reviews.contract.ts: the review queries (queries/reviews.ts) as every Store keeps them; run by
// store.contract.ts for SQLite and PostgreSQL alike.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistrationSchema, type Review } from '@tether/shared';
import type { Store } from './store.ts';

type Factory = () => Promise<{ store: Store; cleanup(): Promise<void> }>;

const PARENT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const CHILD = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const OTHER = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

const review = (extra: Partial<Review> = {}): Review => ({
  id: CHILD,
  parentId: PARENT,
  agent: 'codex',
  state: 'reviewing',
  focus: 'error paths',
  finalAnswer: null,
  createdAt: 10,
  updatedAt: 10,
  ...extra,
});

export function runReviewContract(options: { name: string; create: Factory }): void {
  describe(`Store contract (reviews): ${options.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, cleanup } = await options.create());
      for (const [namespace, id] of [['alpha', PARENT], ['alpha', CHILD], ['beta', OTHER]] as const) {
        await store.registerSession({ namespace, registration: SessionRegistrationSchema.parse({ id, cwd: '/p', launchKind: 'headless' }), now: 1 });
      }
    });
    afterEach(async () => {
      await cleanup();
    });

    it('stores a review with its session\'s parent, lists it under the parent, updates its state and answer', async () => {
      expect((await store.getSession({ namespace: 'alpha', sessionId: CHILD }))?.parentId).toBeNull();
      expect(await store.addReview({ namespace: 'alpha', review: review() })).toEqual({ kind: 'added', review: review() });
      expect((await store.getSession({ namespace: 'alpha', sessionId: CHILD }))?.parentId).toBe(PARENT);
      expect((await store.getSession({ namespace: 'alpha', sessionId: PARENT }))?.parentId).toBeNull();
      expect(await store.addReview({ namespace: 'alpha', review: review({ focus: 'again' }) })).toEqual({ kind: 'exists', review: review() });
      expect(await store.listReviews({ namespace: 'alpha', parentId: PARENT })).toEqual([review()]);
      expect(await store.listReviews({ namespace: 'alpha', parentId: CHILD })).toEqual([]);
      expect(await store.updateReview({ namespace: 'alpha', reviewId: CHILD, state: 'answered', finalAnswer: 'Looks fine.', now: 20 })).toEqual(
        review({ state: 'answered', finalAnswer: 'Looks fine.', updatedAt: 20 }),
      );
      // A state change alone keeps the answer.
      expect(await store.updateReview({ namespace: 'alpha', reviewId: CHILD, state: 'ended', now: 30 })).toMatchObject({ state: 'ended', finalAnswer: 'Looks fine.', updatedAt: 30 });
    });

    it('keeps reviews inside one namespace: another namespace\'s sessions and reviews answer like missing ones', async () => {
      expect(await store.addReview({ namespace: 'alpha', review: review({ parentId: OTHER }) })).toEqual({ kind: 'not_found' });
      expect(await store.addReview({ namespace: 'beta', review: review({ id: OTHER }) })).toEqual({ kind: 'not_found' });
      expect(await store.listReviews({ namespace: 'alpha', parentId: PARENT })).toEqual([]);
      expect((await store.getSession({ namespace: 'alpha', sessionId: CHILD }))?.parentId).toBeNull();
      await store.addReview({ namespace: 'alpha', review: review() });
      expect(await store.getReview({ namespace: 'beta', reviewId: CHILD })).toBeNull();
      expect(await store.listReviews({ namespace: 'beta', parentId: PARENT })).toEqual([]);
      expect(await store.updateReview({ namespace: 'beta', reviewId: CHILD, state: 'ended', now: 5 })).toBeNull();
      expect(await store.getReview({ namespace: 'alpha', reviewId: CHILD })).toEqual(review());
    });
  });
}
