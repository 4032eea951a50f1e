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

/** An access token (`tether token create`, the hub's first) or a paired device's own token. */
export const TokenKindSchema = z.enum(['access', 'device']);
export type TokenKind = z.infer<typeof TokenKindSchema>;

export const TokenInfoSchema = z.object({
  id: z.string().max(64),
  namespace: NamespaceSchema,
  label: z.string().max(MAX_LABEL_CHARS),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema.nullable(),
  revokedAt: TimestampSchema.nullable(),
  kind: TokenKindSchema,
  /** The token whose pairing code minted this device (revoked with it); null for the rest. */
  parentId: z.string().max(64).nullable(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

export const LoginBodySchema = z.object({ token: z.string().min(1).max(200) }).strict();
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const LoginResponseSchema = z.object({
  /** Signed (HS256) web session; send as `Authorization: Bearer …` and in the socket handshake. */
  session: z.string(),
  namespace: NamespaceSchema,
  expiresAt: TimestampSchema,
  /** A paired device over https or loopback: an HttpOnly cookie renews the session
   *  (`POST /api/auth/refresh`) until the device is revoked or idle. Absent: sign in again. */
  renewable: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** A token's public id (`tether token list`, `DELETE /api/devices/:id`); never derived from its secret. */
export const TokenIdSchema = z.string().regex(/^tok_[a-f0-9]{16}$/, 'not a token id');

/** A device of the caller's namespace, as its settings list it (`GET /api/devices`). */
export const DeviceInfoSchema = z.object({
  id: z.string().max(64),
  label: z.string().max(MAX_LABEL_CHARS),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema.nullable(),
  /** The caller's own device (the one that may sign itself out here). */
  current: z.boolean(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;
export const DeviceListSchema = z.object({
  devices: z.array(DeviceInfoSchema),
  /** The caller is the namespace's owner (signed in with an access token): it may sign out any
   *  device. A paired device may sign out only itself. */
  canRevokeOthers: z.boolean(),
  /** A device unused this many days is signed out (`tether hub --device-idle-days`). */
  idleDays: z.number().int().positive(),
});
export type DeviceList = z.infer<typeof DeviceListSchema>;
