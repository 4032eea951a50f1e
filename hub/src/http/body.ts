// body.ts: reads a JSON body and parses it with its shared schema. Bad JSON or a schema failure is a
// 400 with the reason (so is nesting past MAX_PAYLOAD_DEPTH); the size cap (413) is enforced before this by the body-limit middleware.
import type { Context } from 'hono';
import type { z } from 'zod';
import { describeZodError, MAX_PAYLOAD_DEPTH, payloadTooDeep } from '@tether/shared';
import { httpError } from './errors.ts';

export async function parseJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
): Promise<{ ok: true; data: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return { ok: false, response: httpError(c, { code: 'bad_request', error: 'body must be JSON' }) };
  }
  if (payloadTooDeep(raw)) return { ok: false, response: httpError(c, { code: 'bad_request', error: `body nested deeper than ${MAX_PAYLOAD_DEPTH} levels` }) };
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, response: httpError(c, { code: 'bad_request', error: describeZodError(parsed.error) }) };
  return { ok: true, data: parsed.data };
}
