// pairing.ts: one-time pairing codes, the credential a phone scans instead of an access token.
//
//   tether pair / tether hub ─► POST /api/pair-codes (or the store) ─► code, shown as <url>/#pair=<code>
//   phone ─► POST /api/auth/pair { code } ─► a device token of the code's namespace, and a web session
//
// A code is `tpc_` + 192 random bits, lives 10 minutes, works once; the hub keeps only its hash.
import { z } from 'zod';
import { NamespaceSchema, TimestampSchema } from './ids.ts';
import { PAIR_CODE_PREFIX } from './wire.ts';

export { PAIR_CODE_PREFIX } from './wire.ts';

/** How long a pairing code can be redeemed: long enough to reach for a phone, short enough that a
 *  photo of the QR taken later is worth nothing. */
export const PAIR_CODE_TTL_MS = 10 * 60 * 1000;

/** What a code looks like on the wire (the hub makes 32 characters after the prefix; a little slack
 *  either way so a future length change stays readable to older peers). Anything else is not a code. */
export const PairCodeSchema = z
  .string()
  .min(PAIR_CODE_PREFIX.length + 22)
  .max(PAIR_CODE_PREFIX.length + 86)
  .regex(/^tpc_[A-Za-z0-9_-]+$/, 'not a tether pairing code');

/** `POST /api/auth/pair`: redeems a code; the answer is a LoginResponse (auth.ts). */
export const PairBodySchema = z.object({ code: PairCodeSchema }).strict();
export type PairBody = z.infer<typeof PairBodySchema>;

/** `POST /api/pair-codes`: a code for the caller's own namespace; the body is empty or `{}`. */
export const PairCodeCreateSchema = z.object({}).strict();

export const PairCodeCreatedSchema = z.object({
  code: PairCodeSchema,
  namespace: NamespaceSchema,
  expiresAt: TimestampSchema,
  /** The hub's phone URL (https, `tether hub --public-url` or the Tailscale name), to which a client
   *  appends `/#pair=<code>`; null when the hub has none (a phone then cannot open it). */
  url: z.string().url().max(2048).nullable(),
});
export type PairCodeCreated = z.infer<typeof PairCodeCreatedSchema>;
