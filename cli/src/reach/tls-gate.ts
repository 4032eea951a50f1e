// tls-gate.ts: before `tether hub` shows an https URL (QR, phone-url file), it fetches that URL the
// way a phone would: normal certificate verification (Bun's bundled roots plus NODE_EXTRA_CA_CERTS),
// and a fresh challenge only this hub can answer (hub/src/reach/reach-proof.ts).
//
//   gate ─► GET <url>/healthz/reach?challenge=<32 random bytes> ─► answer === hub's own? ─► ok
//         └─ refused, unresolved, TLS refused, 5xx, timeout ─► retry until the budget ends
//
// Why retry: a proxy that was just configured may still be fetching its certificate (Tailscale,
// Caddy) or its name may be a moment from resolving. An untrusted certificate or a wrong answer is
// final: waiting does not change them. An answer is read to REACH_ANSWER_MAX_BYTES (+ the reader's
// slack) and no further: whatever sends more is not a hub.
import { randomBytes } from 'node:crypto';
import { dropBody, readCappedBody } from '@tether/shared';

export type GateResult =
  | { kind: 'ok' }
  | { kind: 'untrusted'; reason: string }
  | { kind: 'unresolved'; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'not-this-hub'; reason: string }
  | { kind: 'unreachable'; reason: string };

export type GateOptions = {
  /** The https base URL to check (no path). */
  url: string;
  /** Where the hub answers challenges (REACH_PROOF_PATH). */
  path: string;
  /** The hub's own answer to a challenge (Hub.reachAnswer). */
  answer(challenge: string): string | null;
  /** Whole time the gate may take (default 10 s). */
  budgetMs?: number;
  /** One request at most (default 4 s; a first certificate fetch holds the handshake). */
  attemptMs?: number;
  /** Pause between tries (default 500 ms). */
  retryMs?: number;
  /** Extra CA certificates (PEM), besides the bundled roots: tests' throwaway CA. */
  ca?: string;
};

/** The largest answer read: a hub's `{ proof }` is under 100 bytes; 4 KiB also holds a proxy's
 *  short error page, which only says what answered. */
export const REACH_ANSWER_MAX_BYTES = 4 * 1024;

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET_ISSUER)|ALTNAME|HOSTNAME_MISMATCH|ERR_TLS_CERT/;

/** Sorts a fetch failure into what the user must fix. */
export function classifyFetchError(error: unknown): GateResult {
  const e = error as { code?: string; name?: string; message?: string };
  const code = e?.code ?? '';
  const message = (e?.message ?? String(error)).split('\n')[0]!.slice(0, 200);
  const reason = code && !message.includes(code) ? `${message} [${code}]` : message;
  if (TLS_CODES.test(code)) return { kind: 'untrusted', reason };
  if (/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_NODATA|DNSException)$/.test(code) || /getaddrinfo|ENOTFOUND/.test(message)) return { kind: 'unresolved', reason };
  if (code === 'ECONNREFUSED' || /ECONNREFUSED|Connection refused/i.test(message)) return { kind: 'refused', reason };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return { kind: 'unreachable', reason: 'no answer in time' };
  return { kind: 'unreachable', reason };
}

async function attempt(options: GateOptions, attemptMs: number): Promise<GateResult> {
  const challenge = randomBytes(32).toString('base64url');
  const target = `${options.url.replace(/\/$/, '')}${options.path}?challenge=${challenge}`;
  let res: Response;
  try {
    res = await fetch(target, {
      redirect: 'manual',
      signal: AbortSignal.timeout(attemptMs),
      headers: { accept: 'application/json' },
      ...(options.ca ? { tls: { ca: options.ca } } : {}),
    } as RequestInit);
  } catch (error) {
    return classifyFetchError(error);
  }
  if (res.status >= 500) {
    dropBody(res.body);
    return { kind: 'unreachable', reason: `it answered HTTP ${res.status} (is the proxy's upstream this hub's port?)` };
  }
  const answer = await readCappedBody({ body: res.body, capBytes: REACH_ANSWER_MAX_BYTES });
  if (!answer.ok && answer.reason === 'broken') return { kind: 'unreachable', reason: `it sent ${answer.error}` };
  if (!answer.ok) return { kind: 'not-this-hub', reason: `it answered HTTP ${res.status} with ${answer.error}` };
  let proof: unknown = null;
  try {
    proof = (JSON.parse(new TextDecoder().decode(answer.bytes)) as { proof?: unknown }).proof;
  } catch {
    // not JSON: not a hub
  }
  const expected = options.answer(challenge);
  if (res.status === 200 && expected !== null && proof === expected) return { kind: 'ok' };
  const what = res.status >= 300 && res.status < 400 ? `a redirect to ${res.headers.get('location') ?? '?'}` : `HTTP ${res.status}${typeof proof === 'string' ? ' with another hub\'s proof' : ''}`;
  return { kind: 'not-this-hub', reason: `it answered ${what}` };
}

const FINAL: ReadonlySet<GateResult['kind']> = new Set(['ok', 'untrusted', 'not-this-hub']);

export async function tlsGate(options: GateOptions): Promise<GateResult> {
  const budgetMs = options.budgetMs ?? 10_000;
  const deadline = Date.now() + budgetMs;
  for (;;) {
    const left = deadline - Date.now();
    const result = await attempt(options, Math.max(250, Math.min(options.attemptMs ?? 4_000, left)));
    if (FINAL.has(result.kind) || Date.now() + (options.retryMs ?? 500) >= deadline) return result;
    await Bun.sleep(options.retryMs ?? 500);
  }
}

/** What the gate found, as the line `tether hub` prints, with what to fix. */
export function describeGate(options: { url: string; result: GateResult; hubUrl: string }): string {
  const { url, result } = options;
  const host = new URL(url).host;
  switch (result.kind) {
    case 'ok':
      return `checked ${url}: certificate trusted, answered by this hub`;
    case 'untrusted':
      return `checked ${url}: certificate not trusted (${result.reason}). A phone will refuse it too: give the proxy a certificate from a public CA (Let's Encrypt), or trust your own CA on every device (on this machine: NODE_EXTRA_CA_CERTS=ca.pem)`;
    case 'unresolved':
      return `checked ${url}: the name ${host} does not resolve (${result.reason}). Create its DNS record (pointing at your HTTPS proxy), then restart`;
    case 'refused':
      return `checked ${url}: connection refused at ${host}. Nothing listens there: start your HTTPS proxy (docs/deploy.md) in front of ${options.hubUrl}`;
    case 'not-this-hub':
      return `checked ${url}: answered, but not by this hub (${result.reason}). Point the proxy at ${options.hubUrl}`;
    case 'unreachable':
      return `checked ${url}: could not reach it (${result.reason}). Check the proxy in front of ${options.hubUrl}; one that is still getting its first certificate can take a minute: then restart`;
  }
}
