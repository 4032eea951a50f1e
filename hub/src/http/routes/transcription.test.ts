// transcription.test.ts (routes): POST /api/transcriptions through the whole Hono app (auth, body
// limit, config) against the scripted fake endpoint on a real port.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS } from '@tether/shared';
import { makeWav, startFakeTranscription, type FakeTranscription } from '../../../../tests/fixtures/fake-transcription/fake-transcription.ts';
import { httpAppParts } from '../../testing/http-parts.ts';
import { openTempStore, removeTempStore } from '../../testing/temp-store.ts';
import type { Store } from '../../store/store.ts';
import { createAccessToken } from '../../auth/tokens.ts';
import { createTranscription, type Transcription } from '../../transcription/transcription.ts';
import { createHttpApp } from '../app.ts';

let dir: string;
let store: Store;
let fake: FakeTranscription;
let token: string;

function build(transcription: Transcription | null) {
  return createHttpApp({
    ...httpAppParts(store),
    features: { shell: false, ...(transcription ? { transcription: { host: transcription.host } } : {}) },
    transcription,
  });
}

const withFake = () => build(createTranscription({ endpoint: { baseUrl: fake.url, apiKey: 'sk-hub-only', model: 'whisper-test' } }));
const post = (app: ReturnType<typeof build>, body: Uint8Array, options: { query?: string; auth?: string | null } = {}) =>
  app.request(`/api/transcriptions${options.query ?? '?durationMs=1000'}`, {
    method: 'POST',
    body: body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'application/octet-stream', ...(options.auth === null ? {} : { authorization: `Bearer ${options.auth ?? token}` }) },
  });

beforeEach(async () => {
  ({ dir, store } = openTempStore('tether-transcription-'));
  token = (await createAccessToken({ store, namespace: 'alpha', label: 'phone' })).token;
  fake = startFakeTranscription({ model: 'whisper-test', apiKey: 'sk-hub-only' });
});
afterEach(async () => {
  await fake.stop();
  await removeTempStore({ dir, store });
});

describe('POST /api/transcriptions', () => {
  it('answers the text of real audio, with the hub-side key and model, and keeps nothing', async () => {
    fake.script(['fix the failing test']);
    const res = await post(withFake(), makeWav({ seconds: 1 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ text: 'fix the failing test' });
    expect(fake.requests).toEqual([expect.objectContaining({ model: 'whisper-test', sniffedType: 'audio/wav', authorization: 'Bearer sk-hub-only', refused: null })]);
  });

  it('refuses a caller without a valid login before anything is forwarded', async () => {
    const app = withFake();
    expect((await post(app, makeWav({ seconds: 0.2 }), { auth: null })).status).toBe(401);
    expect((await post(app, makeWav({ seconds: 0.2 }), { auth: 'tether_bogus' })).status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses oversized and overlong audio with 413 and a reason, and bad durations with 400', async () => {
    const app = withFake();
    const big = await post(app, new Uint8Array(TRANSCRIPTION_MAX_BYTES + 1024));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ code: 'too_large', error: expect.stringContaining('MiB') });
    const long = await post(app, makeWav({ seconds: 0.2 }), { query: `?durationMs=${TRANSCRIPTION_MAX_SECONDS * 1000 + 1}` });
    expect(long.status).toBe(413);
    expect(await long.json()).toEqual({ code: 'too_large', error: expect.stringContaining(`${TRANSCRIPTION_MAX_SECONDS} seconds`) });
    for (const query of ['', '?durationMs=abc', '?durationMs=0', '?durationMs=-5']) expect((await post(app, makeWav({ seconds: 0.2 }), { query })).status).toBe(400);
    const notAudio = await post(app, new TextEncoder().encode('{"prompt":"not audio at all"}'));
    expect(notAudio.status).toBe(400);
    expect(fake.requests).toHaveLength(0);
  });

  it('says 503 and offers nothing to forward to when the hub has no endpoint', async () => {
    const app = build(null);
    const res = await post(app, makeWav({ seconds: 0.2 }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 'unavailable', error: expect.stringContaining("browser's own") });
    const config = await app.request('/api/config', { headers: { authorization: `Bearer ${token}` } });
    expect(await config.json()).toEqual({ shell: false });
  });

  it('tells the phone the endpoint host, never its key or path', async () => {
    const config = await withFake().request('/api/config', { headers: { authorization: `Bearer ${token}` } });
    const body = await config.json();
    expect(body).toEqual({ shell: false, transcription: { host: '127.0.0.1' } });
    expect(JSON.stringify(body)).not.toContain('sk-hub-only');
  });

  it('answers 502 when the endpoint is down or failing', async () => {
    const down = build(createTranscription({ endpoint: { baseUrl: 'http://127.0.0.1:1', model: 'whisper-test' } }));
    const res = await post(down, makeWav({ seconds: 0.2 }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 'bad_gateway', error: "can't reach the transcription service at 127.0.0.1" });
    fake.failWith(503);
    const failing = await post(withFake(), makeWav({ seconds: 0.2 }));
    expect(failing.status).toBe(502);
    expect(await failing.json()).toEqual({ code: 'bad_gateway', error: 'the transcription service at 127.0.0.1 failed (HTTP 503)' });
  });

  it('answers 502 for a 50 MB answer from the endpoint, read only to its cap, and the next dictation gets its text', async () => {
    const app = withFake();
    fake.answerOversize(50 * 1024 * 1024);
    const res = await post(app, makeWav({ seconds: 0.2 }));
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ code: 'bad_gateway', error: 'the transcription service at 127.0.0.1 sent an answer over 64 KiB' });
    await vi.waitFor(() => expect(fake.oversize.brokenOff).toBe(1));
    fake.answerOversize(null);
    fake.script(['back to normal']);
    const next = await post(app, makeWav({ seconds: 0.2 }));
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ text: 'back to normal' });
  });

  it('lets one namespace have at most two dictations in flight', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: Transcription = { host: 'slow.test', transcribe: async () => (await gate, { ok: true, text: 'done' }) };
    const app = build(slow);
    const first = post(app, makeWav({ seconds: 0.2 }));
    const second = post(app, makeWav({ seconds: 0.2 }));
    await new Promise((r) => setTimeout(r, 50));
    const third = await post(app, makeWav({ seconds: 0.2 }));
    expect(third.status).toBe(429);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect((await post(app, makeWav({ seconds: 0.2 }))).status).toBe(200);
  });
});
