// errors.ts: the one JSON error shape of the REST API ({ error, code }, shared ErrorBodySchema) and
// the status each code maps to, so every route answers a failure the same way.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody, ErrorCode } from '@tether/shared';

const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  gone: 410,
  internal: 500,
  unavailable: 503,
  bad_gateway: 502,
};

export function httpError(c: Context, options: { code: ErrorCode; error: string; headers?: Record<string, string> }): Response {
  const body: ErrorBody = { error: options.error, code: options.code };
  return c.json(body, STATUS[options.code], options.headers);
}

/** 429 for failed credentials past the limit (auth/failures.ts), with when to try again. */
export function rateLimited(c: Context, waitSec: number): Response {
  return httpError(c, { code: 'rate_limited', error: `too many failed attempts; retry in ${waitSec}s`, headers: { 'Retry-After': String(waitSec) } });
}
