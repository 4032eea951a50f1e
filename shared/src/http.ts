// http.ts: REST query strings and bodies. Routes parse with these; the web client builds with them.
import { z } from 'zod';
import { MachineSchema } from './machine.ts';
import { SessionSchema } from './session.ts';
import { ChatMessageSchema } from './chat.ts';
import { PendingRequestSchema, ResolutionSchema } from './approvals.ts';
import { MAX_PAGE_LIMIT } from './limits.ts';

const SeqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** `GET /api/sessions/:id/messages?after=seq|before=seq&limit=n` — one direction at a time. */
export const MessagePageQuerySchema = z
  .object({
    after: SeqParam.optional(),
    before: SeqParam.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(100),
  })
  .strict()
  .refine((q) => q.after === undefined || q.before === undefined, 'use either after or before, not both');
export type MessagePageQuery = z.infer<typeof MessagePageQuerySchema>;

export const MessagePageSchema = z.object({
  messages: z.array(ChatMessageSchema),
  /** More messages exist beyond this page in the direction asked. */
  more: z.boolean(),
});
export type MessagePage = z.infer<typeof MessagePageSchema>;

/** Phone cache key: 32 bytes, base64url (43 characters, no padding). */
export const CacheKeySchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
export const SessionListSchema = z.object({
  sessions: z.array(SessionSchema),
  /** A web login's key for its phone's encrypted chat cache (kept in memory only); absent for others. */
  cacheKey: CacheKeySchema.optional(),
});
export type SessionList = z.infer<typeof SessionListSchema>;
export const SessionDetailSchema = z.object({
  session: SessionSchema,
  pending: z.array(PendingRequestSchema),
  audit: z.array(ResolutionSchema),
});
export const MachineListSchema = z.object({ machines: z.array(MachineSchema) });

export const ErrorBodySchema = z.object({ error: z.string(), code: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const HealthSchema = z.object({ ok: z.literal(true), version: z.string(), protocol: z.number(), shell: z.boolean().optional() });
