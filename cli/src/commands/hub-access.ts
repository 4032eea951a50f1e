// hub-access.ts: how a CLI verb reaches the hub with this user's login, so every verb says the same
// thing when the login is missing, the hub is unreachable, the token is refused, or the answer is
// not what this tether understands. Not a verb: the helpers the verbs share.
import type { z } from 'zod';
import { loadCredentials, type Credentials } from '../config/credentials.ts';
import type { WebClient } from '../web-client/web-client.ts';
import { CommandError } from './command.ts';

/** A hub that does not answer by then is unreachable for a CLI user waiting at the prompt. */
const REQUEST_TIMEOUT_MS = 10_000;

export function requireCredentials(): Credentials {
  const creds = loadCredentials();
  if (!creds) throw new CommandError('not logged in: run tether auth login --hub URL --token T (or set TETHER_HUB_URL and TETHER_TOKEN)');
  return creds;
}

/** GET `path` with the access token and parse the body with `schema`; `what` names the body in the
 *  error ("a machine list"). */
export function getHubJson<T>(options: { creds: Credentials; path: string; schema: z.ZodType<T>; what: string }): Promise<T> {
  return requestHubJson({ ...options, method: 'GET' });
}

/** POST `body` (JSON) to `path` with the access token; the answer is parsed as getHubJson's is. */
export function postHubJson<T>(options: { creds: Credentials; path: string; body: unknown; schema: z.ZodType<T>; what: string }): Promise<T> {
  return requestHubJson({ ...options, method: 'POST' });
}

async function requestHubJson<T>(options: { creds: Credentials; method: 'GET' | 'POST'; path: string; body?: unknown; schema: z.ZodType<T>; what: string }): Promise<T> {
  const { creds } = options;
  let res: Response;
  try {
    res = await fetch(`${creds.hubUrl}${options.path}`, {
      method: options.method,
      headers: { authorization: `Bearer ${creds.token}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CommandError(`cannot reach the hub at ${creds.hubUrl}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (res.status === 401) throw new CommandError('the hub refused the token (unknown or revoked); run tether auth login again');
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const reason = (body as { error?: unknown } | null)?.error;
    throw new CommandError(`the hub answered HTTP ${res.status}${typeof reason === 'string' ? `: ${reason}` : ''}`);
  }
  const parsed = options.schema.safeParse(body);
  if (!parsed.success) throw new CommandError(`the hub sent ${options.what} this tether does not understand (version mismatch?)`);
  return parsed.data;
}

/** A `/web` socket that acts like a phone, named `device` in the audit trail. Loaded on demand so
 *  REST-only verbs never pay for socket.io. */
export async function connectAsPhone(options: { creds: Credentials; device: string; reconnection?: boolean }): Promise<WebClient> {
  const { connectWebClient } = await import('../web-client/web-client.ts');
  return connectWebClient({ hubUrl: options.creds.hubUrl, token: options.creds.token, device: options.device, reconnection: options.reconnection }).catch(
    (error: Error) => {
      throw new CommandError(error.message);
    },
  );
}
