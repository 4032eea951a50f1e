// pair-codes.ts (routes): `POST /api/pair-codes` (behind the bearer middleware) → a one-time pairing
// code for the CALLER's namespace, when it expires, and the hub's phone URL to put it in (null when
// the hub has none: then no phone can open it, and the client says so rather than guess a URL).
import { Hono } from 'hono';
import { describeZodError, PairCodeCreateSchema, payloadTooDeep, type PairCodeCreated } from '@tether/shared';
import type { Pairing } from '../../auth/pairing.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

export function createPairCodeRoutes(options: { pairing: Pairing; publicUrl: string | null }) {
  const app = new Hono<HubHttpEnv>();
  app.post('/', async (c) => {
    // The body is optional: none, or `{}` (nothing to choose: the namespace is the caller's).
    const text = await c.req.text();
    let raw: unknown = {};
    if (text.trim() !== '') {
      try {
        raw = JSON.parse(text);
      } catch {
        return httpError(c, { code: 'bad_request', error: 'body must be JSON' });
      }
    }
    if (payloadTooDeep(raw)) return httpError(c, { code: 'bad_request', error: 'body nested too deep' });
    const body = PairCodeCreateSchema.safeParse(raw);
    if (!body.success) return httpError(c, { code: 'bad_request', error: describeZodError(body.error) });
    const caller = c.get('caller');
    // The code dies with its maker's token: revoking a phone revokes the codes it made, unused or not.
    const made = await options.pairing.create({ namespace: caller.namespace, createdBy: caller.label || caller.tokenId, creatorTokenId: caller.tokenId });
    if (made.kind === 'full') return httpError(c, { code: 'rate_limited', error: 'too many unused pairing codes in this namespace; use one or wait 10 minutes' });
    const created: PairCodeCreated = { code: made.code, namespace: caller.namespace, expiresAt: made.expiresAt, url: options.publicUrl };
    return c.json(created, 201);
  });
  return app;
}
