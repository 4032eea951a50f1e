// transcription.test.ts: the dictation room against the scripted fake endpoint on a real port:
// audio checked by its bytes, caps before anything is sent, the key and model forwarded, and the
// endpoint's failures (down, erroring, no text, an answer over its cap or one that stalls) told as
// clear 502s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS } from '@tether/shared';
import { makeWav, startFakeTranscription, type FakeTranscription } from '../../../tests/fixtures/fake-transcription/fake-transcription.ts';
import { sniffAudio, wavSeconds } from './audio-type.ts';
import { createTranscription, TRANSCRIPTION_ANSWER_MAX_BYTES, transcriptionUrl } from './transcription.ts';

let fake: FakeTranscription;
beforeEach(() => {
  fake = startFakeTranscription({ model: 'whisper-test', apiKey: 'sk-test' });
});
afterEach(() => fake.stop());

const endpoint = () => ({ baseUrl: fake.url, apiKey: 'sk-test', model: 'whisper-test' });

describe('audio-type', () => {
  it('tells formats by their bytes and reads a WAV header', () => {
    expect(sniffAudio(makeWav({ seconds: 0.5 }))?.mediaType).toBe('audio/wav');
    expect(sniffAudio(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]))?.mediaType).toBe('audio/webm');
    expect(sniffAudio(new TextEncoder().encode('OggS\0\0\0\0\0\0\0\0'))?.mediaType).toBe('audio/ogg');
    expect(sniffAudio(new TextEncoder().encode('\0\0\0\x18ftypM4A '))?.mediaType).toBe('audio/mp4');
    expect(sniffAudio(new TextEncoder().encode('<html><body>hi</body>'))).toBeNull();
    expect(wavSeconds(makeWav({ seconds: 1.5 }))).toBeCloseTo(1.5, 3);
  });

  it('builds the endpoint path once, with or without /v1 in the base', () => {
    expect(transcriptionUrl('http://127.0.0.1:9000').href).toBe('http://127.0.0.1:9000/v1/audio/transcriptions');
    expect(transcriptionUrl('http://127.0.0.1:9000/v1/').href).toBe('http://127.0.0.1:9000/v1/audio/transcriptions');
    expect(transcriptionUrl('https://example.test/whisper').href).toBe('https://example.test/whisper/v1/audio/transcriptions');
    expect(() => transcriptionUrl('file:///etc/passwd')).toThrow(/http/);
  });
});

describe('transcribe', () => {
  it('forwards real audio with its type, the model and the key, and answers the text', async () => {
    fake.script(['  run the tests  ']);
    const ack = await createTranscription({ endpoint: endpoint() }).transcribe({ data: makeWav({ seconds: 1 }), durationMs: 1000 });
    expect(ack).toEqual({ ok: true, text: 'run the tests' });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({ model: 'whisper-test', declaredType: 'audio/wav', sniffedType: 'audio/wav', fileName: 'dictation.wav', authorization: 'Bearer sk-test', refused: null });
    expect(fake.requests[0]!.bytes).toBe(44 + 16_000 * 2);
  });

  it('sends no Authorization header when no key is configured', async () => {
    const open = startFakeTranscription({ model: 'm' });
    try {
      const ack = await createTranscription({ endpoint: { baseUrl: open.url, model: 'm' } }).transcribe({ data: makeWav({ seconds: 0.2 }), durationMs: 200 });
      expect(ack.ok).toBe(true);
      expect(open.requests[0]!.authorization).toBeNull();
    } finally {
      await open.stop();
    }
  });

  it('refuses oversized, overlong and non-audio bodies before sending anything', async () => {
    const t = createTranscription({ endpoint: endpoint() });
    const big = new Uint8Array(TRANSCRIPTION_MAX_BYTES + 1);
    big.set(makeWav({ seconds: 0.1 }).subarray(0, 44));
    expect(await t.transcribe({ data: big, durationMs: 1000 })).toMatchObject({ ok: false, code: 'too_large' });
    expect(await t.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: TRANSCRIPTION_MAX_SECONDS * 1000 + 1 })).toMatchObject({ ok: false, code: 'too_large' });
    // A WAV whose own header says it runs longer than the cap, whatever the recorder claimed.
    const long = makeWav({ seconds: TRANSCRIPTION_MAX_SECONDS + 1, sampleRate: 8000 });
    expect(await t.transcribe({ data: long, durationMs: 1000 })).toMatchObject({ ok: false, code: 'too_large', error: expect.stringContaining(`${TRANSCRIPTION_MAX_SECONDS} seconds`) });
    expect(await t.transcribe({ data: new TextEncoder().encode('#!/bin/sh\necho not audio\n'), durationMs: 1000 })).toMatchObject({ ok: false, code: 'bad_request', error: expect.stringContaining('not a recording') });
    expect(await t.transcribe({ data: new Uint8Array(0), durationMs: 1000 })).toMatchObject({ ok: false, code: 'bad_request' });
    expect(fake.requests).toHaveLength(0);
  });

  it('says the endpoint is down, failing or silent as a 502 naming its host, without its words', async () => {
    const down = createTranscription({ endpoint: { baseUrl: 'http://127.0.0.1:1', model: 'whisper-test' } });
    expect(await down.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: 100 })).toEqual({ ok: false, code: 'bad_gateway', error: "can't reach the transcription service at 127.0.0.1" });

    fake.failWith(500);
    const t = createTranscription({ endpoint: endpoint() });
    const failed = await t.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: 100 });
    expect(failed).toEqual({ ok: false, code: 'bad_gateway', error: 'the transcription service at 127.0.0.1 failed (HTTP 500)' });

    const silent = createTranscription({ endpoint: endpoint(), fetch: (async () => Response.json({ nothing: true })) as unknown as typeof fetch });
    expect(await silent.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: 100 })).toMatchObject({ ok: false, code: 'bad_gateway', error: expect.stringContaining('no text') });
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    const hanging = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Promise<Response>(() => {}) });
    try {
      const t = createTranscription({ endpoint: { baseUrl: `http://127.0.0.1:${hanging.port}`, model: 'm' }, timeoutMs: 200 });
      expect(await t.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: 100 })).toMatchObject({ ok: false, code: 'bad_gateway', error: expect.stringContaining('did not answer') });
    } finally {
      await hanging.stop(true);
    }
  });

  it('stops reading a 50 MB answer at its cap with a clear 502, and answers the next dictation', async () => {
    const answerBytes = 50 * 1024 * 1024;
    fake.answerOversize(answerBytes);
    const t = createTranscription({ endpoint: endpoint() });
    expect(TRANSCRIPTION_ANSWER_MAX_BYTES).toBe(64 * 1024);
    expect(await t.transcribe({ data: makeWav({ seconds: 0.5 }), durationMs: 500 })).toEqual({
      ok: false,
      code: 'bad_gateway',
      error: 'the transcription service at 127.0.0.1 sent an answer over 64 KiB',
    });
    // The hub cancelled the answer: the endpoint's stream was broken off before its end.
    await vi.waitFor(() => expect(fake.oversize.brokenOff).toBe(1));
    expect(fake.oversize.sentBytes).toBeLessThan(answerBytes);
    fake.answerOversize(null);
    fake.script(['still listening']);
    expect(await t.transcribe({ data: makeWav({ seconds: 0.5 }), durationMs: 500 })).toEqual({ ok: true, text: 'still listening' });
  });

  it('gives up on an answer that starts and then stalls, within the same time bound', async () => {
    const stalling = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"text":"half')) }), { headers: { 'content-type': 'application/json' } }),
    });
    try {
      const t = createTranscription({ endpoint: { baseUrl: `http://127.0.0.1:${stalling.port}`, model: 'm' }, timeoutMs: 300 });
      expect(await t.transcribe({ data: makeWav({ seconds: 0.1 }), durationMs: 100 })).toEqual({
        ok: false,
        code: 'bad_gateway',
        error: 'the transcription service at 127.0.0.1 sent an answer that broke off',
      });
    } finally {
      await stalling.stop(true);
    }
  });
});
