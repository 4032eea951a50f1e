// reach-proof.ts: lets `tether hub` prove that a public URL reaches THIS hub (the TLS gate). The gate
// sends a fresh random challenge to `<url>/healthz/reach?challenge=…`; the hub answers
// HMAC-SHA256(key, challenge), and the gate compares it with the same computation in-process.
//
// The key is derived from the hub's signing secret (the cluster's, with a database), so every hub of
// one cluster answers alike: a balancer may send the gate to any of them. Derived, never the secret
// itself: the answer is an HMAC under a key used for nothing else, so answering chosen challenges
// tells nobody anything about the secret, the JWTs or the share links signed with it.
import { createHmac } from 'node:crypto';

export const REACH_PROOF_PATH = '/healthz/reach';
/** A challenge is 16-128 base64url characters (the gate sends 32 random bytes). */
const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/;

export type ReachProof = {
  /** The answer for `challenge`, or null when it is not a well-formed challenge. */
  answer(challenge: string): string | null;
};

export function createReachProof(options: { secret: Uint8Array }): ReachProof {
  const key = createHmac('sha256', options.secret).update('tether reach proof key v1').digest();
  return {
    answer(challenge) {
      if (!CHALLENGE.test(challenge)) return null;
      return createHmac('sha256', key).update(challenge).digest('base64url');
    },
  };
}
