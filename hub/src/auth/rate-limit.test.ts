import { expect, it } from 'vitest';
import { createFailureLimiter } from './rate-limit.ts';

it('blocks a key after maxFailures within the window, and frees it when the window ends', () => {
  const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000 });
  for (let i = 0; i < 3; i++) {
    expect(limiter.blockedFor('a', 1000)).toBeNull();
    limiter.recordFailure('a', 1000);
  }
  expect(limiter.blockedFor('a', 1000)).toBe(60);
  expect(limiter.blockedFor('a', 31_000)).toBe(30);
  expect(limiter.blockedFor('b', 1000)).toBeNull();
  expect(limiter.blockedFor('a', 61_000)).toBeNull();
});
