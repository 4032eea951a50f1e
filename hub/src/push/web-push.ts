// web-push.ts: one web push message, encrypted and signed by the `web-push` library, sent with fetch.
//
//   payload ─web-push generateRequestDetails (RFC 8291 aes128gcm + RFC 8292 VAPID JWT)─► headers, body
//   fetch POST endpoint ─► 201 (queued) | 404/410 (the subscription is gone: forget it) | other (try later)
//
// The library's own sender uses node's https module only; fetch also reaches the plain-http loopback
// endpoint the tests run, and gives one timeout and one error path for both.
// Invariants: the library encrypts every payload to the subscription's own keys with a fresh server
// key pair and salt; nothing reusable is ever sent. Of the push service's answer only a failure's
// reason is read, to PUSH_ANSWER_MAX_BYTES (+ the reader's slack); any other body is dropped unread.
import webpush from 'web-push';
import { dropBody, readCappedBody } from '@tether/shared';

/** A push that waited longer than an hour is about a turn or an approval that is long over. */
export const PUSH_TTL_SEC = 60 * 60;
const SEND_TIMEOUT_MS = 10_000;
/** The largest failure answer read: push services explain a refusal in a short JSON or text line
 *  (FCM, Mozilla's autopush, Apple: a few hundred bytes), and the log keeps 200 characters of it. */
export const PUSH_ANSWER_MAX_BYTES = 4 * 1024;
const REASON_CHARS = 200;

export type VapidKeys = {
  /** Uncompressed P-256 public key, base64url: what browsers subscribe with. */
  publicKey: string;
  /** The private scalar d, base64url (32 bytes). */
  privateKey: string;
  /** Contact for push services (RFC 8292 `sub`): a mailto: or https: URL. */
  subject: string;
};

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
export type PushOutcome = { kind: 'sent' } | { kind: 'gone' } | { kind: 'failed'; status: number; reason: string };

/** Encrypts, signs and POSTs one message. Never throws: the caller decides what an outcome means. */
export async function sendWebPush(options: {
  target: PushTarget;
  payload: object;
  keys: VapidKeys;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
  fetchFn?: typeof fetch;
}): Promise<PushOutcome> {
  try {
    const request = webpush.generateRequestDetails(
      { endpoint: options.target.endpoint, keys: { p256dh: options.target.p256dh, auth: options.target.auth } },
      JSON.stringify(options.payload),
      {
        vapidDetails: { subject: options.keys.subject, publicKey: options.keys.publicKey, privateKey: options.keys.privateKey },
        TTL: PUSH_TTL_SEC,
        urgency: options.urgency ?? 'high',
        contentEncoding: 'aes128gcm',
      },
    );
    const headers = new Headers();
    // fetch sets Content-Length from the body itself.
    for (const [name, value] of Object.entries(request.headers)) if (name.toLowerCase() !== 'content-length') headers.set(name, String(value));
    const response = await (options.fetchFn ?? fetch)(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'error',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (response.ok || response.status === 404 || response.status === 410) {
      dropBody(response.body);
      return response.ok ? { kind: 'sent' } : { kind: 'gone' };
    }
    const answer = await readCappedBody({ body: response.body, capBytes: PUSH_ANSWER_MAX_BYTES });
    const reason = answer.ok ? new TextDecoder().decode(answer.bytes).slice(0, REASON_CHARS) : `the push service sent ${answer.error}`;
    return { kind: 'failed', status: response.status, reason };
  } catch (error) {
    return { kind: 'failed', status: 0, reason: error instanceof Error ? error.message : String(error) };
  }
}
