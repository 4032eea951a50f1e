import { expect, it } from 'vitest';
import { createAuthFailures } from './failures.ts';

const token = (tail: string) => `tth_${tail.padEnd(43, 'x')}`;

it('429s an address past its limit, whatever token it tries next', () => {
  const failures = createAuthFailures({ perAddress: 3, perPrefix: 100, windowMs: 60_000 });
  const results = Array.from({ length: 4 }, (_, i) => failures.failed({ address: 'a', credential: token(`guess${i}`) }, 1000));
  expect(results).toEqual([null, null, null, 60]);
  expect(failures.failed({ address: 'b', credential: token('guess9') }, 1000)).toBeNull();
  expect(failures.failed({ address: 'a', credential: token('guess9') }, 61_000)).toBeNull();
});

it('429s one token prefix tried from many addresses', () => {
  const failures = createAuthFailures({ perAddress: 100, perPrefix: 3, windowMs: 60_000 });
  const results = Array.from({ length: 4 }, (_, i) => failures.failed({ address: `10.0.0.${i}`, credential: token(`samepref${i}`) }, 1000));
  expect(results).toEqual([null, null, null, 60]);
  expect(failures.failed({ address: '10.0.0.9', credential: token('otherpre') }, 1000)).toBeNull();
});

it('does not count what is not shaped like a credential', () => {
  const failures = createAuthFailures({ perAddress: 1, perPrefix: 1 });
  for (let i = 0; i < 5; i++) expect(failures.failed({ address: 'a', credential: `garbage ${i}` })).toBeNull();
  expect(failures.failed({ address: 'a', credential: 'a.b.c' })).toBeNull();
  expect(failures.failed({ address: 'a', credential: 'a.b.c' })).toBe(60);
});

it('counts a pairing code like a token: per address and per prefix', () => {
  const failures = createAuthFailures({ perAddress: 2, perPrefix: 100, windowMs: 60_000 });
  const code = (tail: string) => `tpc_${tail.padEnd(32, 'x')}`;
  expect([0, 1, 2].map((i) => failures.failed({ address: 'a', credential: code(`c${i}`) }, 1000))).toEqual([null, null, 60]);
  // The address is now past its limit for tokens too: one count for every way in.
  expect(failures.failed({ address: 'a', credential: token('t') }, 1000)).toBe(60);
});
