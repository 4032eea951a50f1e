// transcription.ts: dictation forwarded to an OpenAI-compatible transcription endpoint
// (`POST <base>/v1/audio/transcriptions`, multipart `file` + `model`), for example a local whisper
// server. The endpoint and its key are the hub owner's (config/env), never the client's.
// Invariants: the audio lives only in this request's memory: nothing is written, logged or kept, and
// audio that is too large, too long or not audio is refused before anything is sent. The endpoint's
// answer is read to TRANSCRIPTION_ANSWER_MAX_BYTES (+ the reader's slack) and no further.
import { dropBody, readCappedBody, TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS, TranscriptionResultSchema, type AckError } from '@tether/shared';
import { sniffAudio, wavSeconds } from './audio-type.ts';

/** How long the endpoint may take for one dictation (a CPU whisper on two minutes of audio). */
export const TRANSCRIPTION_TIMEOUT_MS = 60_000;

/** The largest answer the hub reads: two minutes of speech is at most ~2,000 characters (12 KB
 *  even as `\uXXXX` escapes), and a server that ignores `response_format=json` and sends
 *  verbose_json (segments, word timings) stays well under 64 KiB. */
export const TRANSCRIPTION_ANSWER_MAX_BYTES = 64 * 1024;

export type TranscriptionEndpoint = {
  /** Base URL, e.g. `http://127.0.0.1:9000` (the path `/v1/audio/transcriptions` is added). */
  baseUrl: string;
  /** Sent as a Bearer token when set (TETHER_TRANSCRIPTION_KEY). */
  apiKey?: string;
  /** The `model` field, e.g. `whisper-1` or a local server's model name. */
  model: string;
};

export type TranscribeAck = { ok: true; text: string } | AckError;

export type Transcription = {
  /** Where the audio goes, for the phone to say: the endpoint's host (no path, no key). */
  host: string;
  transcribe(input: { data: Uint8Array; durationMs: number }): Promise<TranscribeAck>;
};

/** The endpoint URL with `/v1/audio/transcriptions` appended once (a base given with `/v1` too). */
export function transcriptionUrl(baseUrl: string): URL {
  const base = new URL(baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('transcription URL must be http(s)');
  const path = base.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return new URL(`${path}/v1/audio/transcriptions`, base.origin);
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

function refuse(code: AckError['code'], error: string): AckError {
  return { ok: false, code, error };
}

/** The checks before anything leaves the hub: size, stated and (for WAV) real duration, type by bytes. */
function check(data: Uint8Array, durationMs: number) {
  if (data.length === 0) return refuse('bad_request', 'no audio in the request');
  if (data.length > TRANSCRIPTION_MAX_BYTES) return refuse('too_large', `the recording is over ${TRANSCRIPTION_MAX_BYTES / (1024 * 1024)} MiB`);
  if (durationMs > TRANSCRIPTION_MAX_SECONDS * 1000) return refuse('too_large', `a dictation is at most ${TRANSCRIPTION_MAX_SECONDS} seconds`);
  const type = sniffAudio(data);
  if (!type) return refuse('bad_request', 'not a recording the hub forwards (WebM, Ogg, MP4, WAV or MP3)');
  const seconds = type.mediaType === 'audio/wav' ? wavSeconds(data) : null;
  if (seconds !== null && seconds > TRANSCRIPTION_MAX_SECONDS) return refuse('too_large', `a dictation is at most ${TRANSCRIPTION_MAX_SECONDS} seconds`);
  return type;
}

export function createTranscription(options: { endpoint: TranscriptionEndpoint; timeoutMs?: number; fetch?: typeof fetch }): Transcription {
  const url = transcriptionUrl(options.endpoint.baseUrl);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? TRANSCRIPTION_TIMEOUT_MS;
  return {
    host: url.hostname,
    async transcribe({ data, durationMs }) {
      const type = check(data, durationMs);
      if ('ok' in type) return type;
      const form = new FormData();
      form.set('file', new Blob([data as Uint8Array<ArrayBuffer>], { type: type.mediaType }), `dictation.${type.extension}`);
      form.set('model', options.endpoint.model);
      form.set('response_format', 'json');
      const headers: Record<string, string> = options.endpoint.apiKey ? { authorization: `Bearer ${options.endpoint.apiKey}` } : {};
      let response: Response;
      try {
        response = await doFetch(url, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
      } catch (error) {
        const timedOut = error instanceof Error && error.name === 'TimeoutError';
        return refuse('bad_gateway', timedOut ? `the transcription service at ${url.hostname} did not answer in ${timeoutMs / 1000} s` : `can't reach the transcription service at ${url.hostname}`);
      }
      // The endpoint's own words are not echoed: they may name its internals.
      if (!response.ok) dropBody(response.body);
      if (response.status === 413) return refuse('too_large', `the transcription service at ${url.hostname} refused the recording as too large`);
      if (!response.ok) return refuse('bad_gateway', `the transcription service at ${url.hostname} failed (HTTP ${response.status})`);
      const answer = await readCappedBody({ body: response.body, capBytes: TRANSCRIPTION_ANSWER_MAX_BYTES });
      if (!answer.ok) return refuse('bad_gateway', `the transcription service at ${url.hostname} sent ${answer.error}`);
      const parsed = TranscriptionResultSchema.safeParse(parseJson(answer.bytes));
      if (!parsed.success) return refuse('bad_gateway', `the transcription service at ${url.hostname} sent no text`);
      return { ok: true, text: parsed.data.text.trim() };
    },
  };
}
