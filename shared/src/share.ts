// share.ts: read-only share links. A link lets someone without an account watch one session's
// terminal and chat until it expires or is revoked; it never lets them type, answer or send.
import { z } from 'zod';

/** Shortest and longest life of a link: a minute (a quick look) to 30 days. Default one day. */
export const SHARE_MIN_SEC = 60;
export const SHARE_MAX_SEC = 30 * 24 * 60 * 60;
export const SHARE_DEFAULT_SEC = 24 * 60 * 60;

export const ShareCreateSchema = z.object({
  expiresInSec: z.number().int().min(SHARE_MIN_SEC).max(SHARE_MAX_SEC).default(SHARE_DEFAULT_SEC),
});
export type ShareCreate = z.infer<typeof ShareCreateSchema>;

/** `POST /api/sessions/:id/share` → this. `url` opens the web app's read-only share page. */
export type ShareCreated = { url: string; token: string; jti: string; expiresAt: number };

export const ShareJtiSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/);
