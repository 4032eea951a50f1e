// hub-transcription.test.ts: the dictation endpoint from the environment, and the mistakes refused.
import { describe, expect, it } from 'vitest';
import { readTranscription } from './hub-transcription.ts';

describe('readTranscription', () => {
  it('is off without a URL, and reads URL, key and model', () => {
    expect(readTranscription({})).toEqual({});
    expect(readTranscription({ TETHER_TRANSCRIPTION_URL: '  ' })).toEqual({});
    expect(readTranscription({ TETHER_TRANSCRIPTION_URL: 'http://127.0.0.1:9000' })).toEqual({ transcription: { baseUrl: 'http://127.0.0.1:9000', model: 'whisper-1' } });
    expect(readTranscription({ TETHER_TRANSCRIPTION_URL: 'https://stt.example/v1', TETHER_TRANSCRIPTION_KEY: 'sk-1', TETHER_TRANSCRIPTION_MODEL: 'large-v3' })).toEqual({
      transcription: { baseUrl: 'https://stt.example/v1', apiKey: 'sk-1', model: 'large-v3' },
    });
  });

  it('refuses a URL that is not http(s) or holds credentials', () => {
    expect(() => readTranscription({ TETHER_TRANSCRIPTION_URL: 'not a url' })).toThrow(/not a URL/);
    expect(() => readTranscription({ TETHER_TRANSCRIPTION_URL: 'file:///tmp/x' })).toThrow(/http/);
    expect(() => readTranscription({ TETHER_TRANSCRIPTION_URL: 'http://user:pw@127.0.0.1:9000' })).toThrow(/TETHER_TRANSCRIPTION_KEY/);
  });
});
