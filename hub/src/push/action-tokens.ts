// action-tokens.ts: the authority behind a notification's buttons (Allow, Deny, a question's options…).
//
//   approval pushed ─mint(ns, request, choice, subscription)─► token (inside the encrypted payload)
//   button tapped ─POST /api/push/action {ns, request, choice, token}─► redeem ─► answer as that device
//
// A token is 256 random bits. Only its SHA-256 is kept, with what it is bound to: the namespace, the
// request, the choice, the answer that choice gives (push/choices.ts), and the subscription it was
// sent to (whose device the audit names).
// Invariants: a token answers at most once (it is deleted on its first redeem, whatever the outcome);
// it is refused after TOKEN_TTL_MS, for any other namespace, request or choice, and once its request
// was resolved anywhere (revokeRequest). Kept in memory: a hub restart refuses every token, which
// fails closed (the tap then opens the app).
import { createHash, randomBytes } from 'node:crypto';
import type { Answer, Namespace, NotificationChoice } from '@tether/shared';

/** Long enough to reach a phone and be read; short enough that a leaked payload soon means nothing.
 *  A tap after this opens the app instead. */
export const TOKEN_TTL_MS = 15 * 60 * 1000;
/** Outstanding tokens kept at most (two per subscription per waiting request); the oldest go first. */
const MAX_TOKENS = 10_000;

export type TokenGrant = {
  namespace: Namespace;
  requestId: string;
  choice: NotificationChoice;
  /** What a tap on this button answers, decided when the push was made. */
  answer: Answer;
  /** The subscription the token was pushed to, and the access token that subscription lives by:
   *  revoked, the button answers nothing (actions.ts). */
  endpoint: string;
  tokenId: string;
  /** Who subscribed (the login's label) and on what device: the audit trail's "who" and "device". */
  answeredBy: string;
  device: string;
};

type Held = TokenGrant & { expiresAt: number };

export type RedeemResult = { ok: true; grant: TokenGrant } | { ok: false; reason: 'unknown' | 'expired' | 'mismatch' };

export type ActionTokens = ReturnType<typeof createActionTokens>;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function createActionTokens(options: { ttlMs?: number; now?: () => number } = {}) {
  const ttlMs = options.ttlMs ?? TOKEN_TTL_MS;
  const now = options.now ?? Date.now;
  const held = new Map<string, Held>();

  const prune = (at: number) => {
    for (const [hash, record] of held) if (record.expiresAt <= at) held.delete(hash);
    // Map order is insertion order: the first entries are the oldest.
    while (held.size >= MAX_TOKENS) held.delete(held.keys().next().value!);
  };

  return {
    mint(grant: TokenGrant): string {
      const at = now();
      prune(at);
      const token = randomBytes(32).toString('base64url');
      held.set(hashOf(token), { ...grant, expiresAt: at + ttlMs });
      return token;
    },
    /** Spends the token: it is gone after this call, whether or not it matched. */
    redeem(claim: { namespace: Namespace; requestId: string; choice: NotificationChoice; token: string }): RedeemResult {
      const hash = hashOf(claim.token);
      const record = held.get(hash);
      if (!record) return { ok: false, reason: 'unknown' };
      held.delete(hash);
      if (record.expiresAt <= now()) return { ok: false, reason: 'expired' };
      if (record.namespace !== claim.namespace || record.requestId !== claim.requestId || record.choice !== claim.choice) return { ok: false, reason: 'mismatch' };
      const { expiresAt: _expiresAt, ...grant } = record;
      return { ok: true, grant };
    },
    /** The request was resolved (here, elsewhere, or withdrawn): none of its tokens may act again. */
    revokeRequest(namespace: Namespace, requestId: string): void {
      for (const [hash, record] of held) if (record.namespace === namespace && record.requestId === requestId) held.delete(hash);
    },
    /** Outstanding tokens (tests). */
    get size(): number {
      return held.size;
    },
  };
}
