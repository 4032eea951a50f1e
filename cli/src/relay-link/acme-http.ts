// acme-http.ts: acme-client's HTTP to the CA, carried by fetch and read with the capped reader.
// acme-client reads every answer of the CA (directory, nonce, account, order, authorizations,
// challenge, finalize, the certificate chain and its alternates) through its own axios instance,
// whose node http transport buffers a body whole. This adapter replaces that transport for that
// instance only (acme.axios, nothing else of ours uses axios), so each answer stops at
// ACME_ANSWER_MAX_BYTES + the reader's slack.
//
//   acme-client ─► its axios (transforms, its retry interceptor) ─► this adapter ─fetch─► CA
//                                                        answer ◄── readCappedBody ◄──┘
//
// Invariants: status, headers and the body as text reach acme-client as axios's own transport gave
// them (axios parses JSON after us). An answer over the cap or broken off fails with a clear error
// that is not retried: acme-client's interceptor retries only errors that carry the request's
// config, which this one does not (a CA that sends 50 MB once sends it again). A request that never
// got an answer carries its config and is retried as before.
import * as acme from 'acme-client';
import { dropBody, readCappedBody } from '@tether/shared';

/** The largest answer read: a certificate chain is ~4 KB, an order for the most names a CA allows
 *  (Let's Encrypt: 100) ~12 KB; the directory and an error document are smaller. */
export const ACME_ANSWER_MAX_BYTES = 64 * 1024;

type Adapter = Extract<NonNullable<typeof acme.axios.defaults.adapter>, (...args: never[]) => unknown>;
type AdapterResponse = Awaited<ReturnType<Adapter>>;

function requestHeaders(config: Parameters<Adapter>[0]): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(config.headers.toJSON())) {
    // fetch sets Content-Length from the body itself.
    if (value === null || value === undefined || name.toLowerCase() === 'content-length') continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return headers;
}

export const cappedAcmeTransport: Adapter = async (config) => {
  const url = new URL(config.url ?? '', config.baseURL);
  const method = (config.method ?? 'get').toUpperCase();
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: requestHeaders(config),
      body: method === 'GET' || method === 'HEAD' ? null : ((config.data as string | undefined) ?? null),
      ...(config.timeout ? { signal: AbortSignal.timeout(config.timeout) } : {}),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw Object.assign(new Error(`can't reach the ACME server at ${url.host}: ${why}`), { config, code: (error as { code?: string }).code });
  }
  let data = '';
  if (method === 'HEAD') dropBody(response.body);
  else {
    const answer = await readCappedBody({ body: response.body, capBytes: ACME_ANSWER_MAX_BYTES });
    if (!answer.ok) throw new Error(`the ACME server at ${url.host} sent ${answer.error}`);
    data = new TextDecoder().decode(answer.bytes);
  }
  const result: AdapterResponse = { data, status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), config, request: null };
  // axios's settle: a status the request's validator refuses is a rejection carrying the response
  // (acme-client's interceptor refuses every status, then retries 429 and 5xx or hands it back).
  if (config.validateStatus && !config.validateStatus(response.status)) {
    throw Object.assign(new Error(`Request failed with status code ${response.status}`), { config, response: result });
  }
  return result;
};

/** Puts acme-client's requests on this transport (its module-wide axios instance; idempotent). */
export function useCappedAcmeTransport(): void {
  acme.axios.defaults.adapter = cappedAcmeTransport;
}
