// auth.ts: access tokens (owned by a namespace) and the short-lived web session they buy.
// The token itself crosses the wire only at login and in a runner's handshake; the hub keeps a hash.
import { z } from 'zod';
import { NamespaceSchema, TimestampSchema } from './ids.ts';
import { MAX_LABEL_CHARS } from './limits.ts';

import { TOKEN_PREFIX } from './wire.ts';

export { TOKEN_PREFIX } from './wire.ts';
export const AccessTokenSchema = z
  .string()
  .min(TOKEN_PREFIX.length + 22)
  .max(200)
  .regex(/^tth_[A-Za-z0-9_-]+$/, 'not a tether token');

export const TokenInfoSchema = z.object({
  id: z.string().max(64),
  namespace: NamespaceSchema,
  label: z.string().max(MAX_LABEL_CHARS),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema.nullable(),
  revokedAt: TimestampSchema.nullable(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

export const LoginBodySchema = z.object({ token: z.string().min(1).max(200) }).strict();
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginResponseSchema = z.object({
  /** Signed (HS256) web session; send as `Authorization: Bearer …` and in the socket handshake. */
  session: z.string(),
  namespace: NamespaceSchema,
  expiresAt: TimestampSchema,
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
