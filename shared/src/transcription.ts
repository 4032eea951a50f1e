// transcription.ts: dictation sent to the hub (`POST /api/transcriptions`). The phone records audio
// and posts its bytes; the hub checks them (type by bytes, size, duration), forwards them to the
// OpenAI-compatible transcription endpoint its owner configured, keeps nothing, and answers the text.
import { z } from 'zod';
import { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS } from './wire.ts';

export { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS } from './wire.ts';

/** Audio formats the hub forwards, told apart by their first bytes (MediaRecorder writes WebM on
 *  Chromium, MP4 on Safari, Ogg on Firefox; WAV and MP3 for anything else). */
export const TRANSCRIPTION_MEDIA_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/wav', 'audio/mpeg'] as const;
export type TranscriptionMediaType = (typeof TRANSCRIPTION_MEDIA_TYPES)[number];

/** `POST /api/transcriptions?durationMs=…`: how long the recording ran, as the recorder measured it
 *  (the hub checks a WAV's own header too). The body is the audio's bytes. */
export const TranscriptionQuerySchema = z.object({
  durationMs: z.coerce
    .number()
    .int()
    .min(1, 'durationMs must be positive')
    .max(TRANSCRIPTION_MAX_SECONDS * 1000, `a dictation is at most ${TRANSCRIPTION_MAX_SECONDS} seconds`),
});

export const TranscriptionResultSchema = z.object({ text: z.string().max(100_000) });
export type TranscriptionResult = z.infer<typeof TranscriptionResultSchema>;

/** What GET /api/config says about transcription: the endpoint's host name (where the audio goes),
 *  never its URL's path, query or key. Absent: no endpoint configured. */
export const TranscriptionFeatureSchema = z.object({ host: z.string().min(1).max(255) });
export type TranscriptionFeature = z.infer<typeof TranscriptionFeatureSchema>;
