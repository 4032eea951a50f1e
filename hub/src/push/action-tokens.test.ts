import { describe, expect, it } from 'vitest';
import { createActionTokens, TOKEN_TTL_MS, type TokenGrant } from './action-tokens.ts';

const REQUEST = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const OTHER_REQUEST = '7f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const grant = (choice: 'allow' | 'deny'): TokenGrant => ({
  namespace: 'alice',
  requestId: REQUEST,
  choice,
  answer: { decision: choice },
  endpoint: 'https://push.example.net/a',
  tokenId: 'tok_phone',
  answeredBy: 'phone',
  device: 'Chrome on Android',
});

describe('notification action tokens', () => {
  it('answer once, for exactly the namespace, request and choice they were made for', () => {
    let now = 1_000_000;
    const tokens = createActionTokens({ now: () => now });
    const allow = tokens.mint(grant('allow'));
    expect(allow).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'allow', token: allow })).toEqual({ ok: true, grant: grant('allow') });
    // Replayed: refused.
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'allow', token: allow })).toEqual({ ok: false, reason: 'unknown' });
    now += 1;

    // A wrong namespace, request or choice is refused, and spends the token.
    const cases = [
      { namespace: 'mallory', requestId: REQUEST, choice: 'allow' as const },
      { namespace: 'alice', requestId: OTHER_REQUEST, choice: 'allow' as const },
      { namespace: 'alice', requestId: REQUEST, choice: 'deny' as const },
    ];
    for (const claim of cases) {
      const token = tokens.mint(grant('allow'));
      expect(tokens.redeem({ ...claim, token })).toEqual({ ok: false, reason: 'mismatch' });
      expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'allow', token })).toEqual({ ok: false, reason: 'unknown' });
    }
    // A token nobody minted.
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'allow', token: 'A'.repeat(43) })).toEqual({ ok: false, reason: 'unknown' });
  });

  it('expire after the TTL', () => {
    let now = 5_000;
    const tokens = createActionTokens({ now: () => now });
    const early = tokens.mint(grant('deny'));
    const late = tokens.mint(grant('deny'));
    now += TOKEN_TTL_MS - 1;
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'deny', token: early }).ok).toBe(true);
    now += 1;
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'deny', token: late })).toEqual({ ok: false, reason: 'expired' });
    // Expired ones are dropped when the next is minted.
    tokens.mint(grant('allow'));
    expect(tokens.size).toBe(1);
  });

  it('die with their request once it is resolved anywhere; other requests keep theirs', () => {
    const tokens = createActionTokens();
    const allow = tokens.mint(grant('allow'));
    const deny = tokens.mint(grant('deny'));
    const other = tokens.mint({ ...grant('allow'), requestId: OTHER_REQUEST });
    const otherNamespace = tokens.mint({ ...grant('allow'), namespace: 'bob' });
    tokens.revokeRequest('alice', REQUEST);
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'allow', token: allow }).ok).toBe(false);
    expect(tokens.redeem({ namespace: 'alice', requestId: REQUEST, choice: 'deny', token: deny }).ok).toBe(false);
    expect(tokens.redeem({ namespace: 'alice', requestId: OTHER_REQUEST, choice: 'allow', token: other }).ok).toBe(true);
    expect(tokens.redeem({ namespace: 'bob', requestId: REQUEST, choice: 'allow', token: otherNamespace }).ok).toBe(true);
  });
});
