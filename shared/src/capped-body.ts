// capped-body.ts: how much of an upstream's answer the hub or `tether hub` reads: at most its cap
// plus CAPPED_BODY_SLACK_BYTES, streamed, else the read stops and says so. One reader for every body
// from a server that is not ours (the transcription endpoint, push services, the reach self-check
// through a proxy, the ACME CA): `response.text()` / `.json()` buffer whatever is sent before
// anything checks it, and two 50 MB answers took the hub from 124 to 307 MB (issue 38).
//
//   body ─read chunk─► total ≤ cap + slack? ─yes─► keep it ─► … ─► done: { ok, bytes }
//                                └─ no ─► cancel the stream (the connection closes) ─► { ok: false, over }
//
// Invariants: never throws; holds at most cap + slack bytes (the chunk that crosses is dropped, not
// kept); a body past the limit is cancelled, never drained. A body nobody reads is cancelled too
// (dropBody): an unread body keeps its connection and whatever the runtime buffered.
// Here in shared/ because the hub and the cli both read upstreams and the cli's rooms may not import
// the hub; it needs only WHATWG streams (Bun, Node, browsers), typed by shape: shared/ has no DOM
// or Bun types.

/** Read past a cap before giving up: the cap is the largest legitimate answer as we estimate it;
 *  an answer a little larger still works, and one chunk's worth is what a read holds anyway. */
export const CAPPED_BODY_SLACK_BYTES = 64 * 1024;

/** The part of a ReadableStream of bytes this reads (a fetch Response's `body`). */
export type ByteStream = {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array }>;
    cancel(reason?: unknown): Promise<void>;
  };
};

export type CappedBody =
  | { ok: true; bytes: Uint8Array }
  /** `error` completes "… sent <error>": it names the cap, never what was sent. */
  | { ok: false; reason: 'over-cap' | 'broken'; error: string };

/** "64 KiB", "5 MiB": a cap as people read it. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** The whole body if it is at most `capBytes` + CAPPED_BODY_SLACK_BYTES long; a null body is empty. */
export async function readCappedBody(options: { body: ByteStream | null; capBytes: number }): Promise<CappedBody> {
  if (!options.body) return { ok: true, bytes: new Uint8Array(0) };
  const limit = options.capBytes + CAPPED_BODY_SLACK_BYTES;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    const reader = options.body.getReader();
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      const chunk = step.value ?? new Uint8Array(0);
      if (total + chunk.length > limit) {
        await reader.cancel('over its cap').catch(() => {});
        return { ok: false, reason: 'over-cap', error: `an answer over ${describeBytes(options.capBytes)}` };
      }
      chunks.push(chunk);
      total += chunk.length;
    }
  } catch {
    // The connection broke, or the request's own timeout aborted it mid-answer.
    return { ok: false, reason: 'broken', error: 'an answer that broke off' };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { ok: true, bytes };
}

/** Lets go of a body that will not be read (its status says all): closes its connection now. */
export function dropBody(body: { cancel(reason?: unknown): Promise<void> } | null): void {
  body?.cancel('not read').catch(() => {});
}
