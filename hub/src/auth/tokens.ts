// tokens.ts: access tokens. A token is `tth_` + base64url(32 random bytes); the hub stores only its
// sha-256 and finds a token by that hash, then compares the hashes in constant time.
// Invariant: a revoked token never authenticates; the plaintext is returned once, at creation.
import { randomBytes, randomUUID } from 'node:crypto';
import { sameDigest, sha256Hex } from './digest.ts';
import { TOKEN_PREFIX, type Namespace, type TokenInfo } from '@tether/shared';
import type { Store, TokenRecord } from '../store/store.ts';

/** 32 bytes = 256 bits: far beyond guessing, and 43 base64url characters. */
const TOKEN_BYTES = 32;

export function generateAccessToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashAccessToken(token: string): string {
  return sha256Hex(token);
}

/** Short public id for `tether token revoke <id>`; not derived from the secret. */
export function newTokenId(): string {
  return `tok_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

export async function createAccessToken(options: {
  store: Store;
  namespace: Namespace;
  label?: string;
  now?: number;
}): Promise<{ token: string; info: TokenInfo }> {
  const token = generateAccessToken();
  const record: TokenRecord = {
    id: newTokenId(),
    namespace: options.namespace,
    hash: hashAccessToken(token),
    label: options.label ?? '',
    createdAt: options.now ?? Date.now(),
    lastUsedAt: null,
    revokedAt: null,
    kind: 'access',
    parentId: null,
  };
  await options.store.insertToken({ token: record });
  const { hash: _hash, ...info } = record;
  return { token, info };
}

/** The live (not revoked) token record for a presented token, or null. */
export async function verifyAccessToken(options: { store: Store; token: string }): Promise<TokenRecord | null> {
  if (!options.token.startsWith(TOKEN_PREFIX) || options.token.length > 200) return null;
  const hash = hashAccessToken(options.token);
  const record = await options.store.findTokenByHash({ hash });
  if (!record) return null;
  // The lookup was by hash already; the constant-time compare keeps the final check free of
  // early-exit timing even if a future store matches on a prefix or index collation.
  if (!sameDigest(record.hash, hash)) return null;
  if (record.revokedAt !== null) return null;
  return record;
}

/** Revokes the token and every device paired from it (on down); false when it was not live. */
export async function revokeAccessToken(options: { store: Store; id: string; now?: number }): Promise<boolean> {
  return (await options.store.revokeToken({ id: options.id, at: options.now ?? Date.now() })).includes(options.id);
}
