// transcription.ts (routes): `POST /api/transcriptions?durationMs=…`: a dictation's audio bytes in,
// its text out (transcription/transcription.ts forwards them; nothing is kept). Behind the bearer
// check like every /api route; its body limit (TRANSCRIPTION_MAX_BYTES) is set in app.ts.
// Without a configured endpoint it answers 503, and the phone offers only the browser's own.
import { Hono } from 'hono';
import { describeZodError, TranscriptionQuerySchema } from '@tether/shared';
import type { Transcription } from '../../transcription/transcription.ts';
import type { HubHttpEnv } from '../env.ts';
import { httpError } from '../errors.ts';

/** Dictations one namespace may have in flight at once: a CPU whisper serves one at a time, and a
 *  stuck phone must not queue up a hundred. */
export const TRANSCRIPTIONS_IN_FLIGHT_PER_NAMESPACE = 2;

export function createTranscriptionRoutes(options: { transcription: Transcription | null }) {
  const app = new Hono<HubHttpEnv>();
  const inFlight = new Map<string, number>();

  app.post('/', async (c) => {
    const { transcription } = options;
    if (!transcription) return httpError(c, { code: 'unavailable', error: "this hub has no transcription endpoint; use the browser's own speech recognition" });
    const query = TranscriptionQuerySchema.safeParse(c.req.query());
    if (!query.success) return httpError(c, { code: query.error.issues.some((i) => i.code === 'too_big') ? 'too_large' : 'bad_request', error: describeZodError(query.error) });
    const namespace = c.get('caller').namespace;
    const running = inFlight.get(namespace) ?? 0;
    if (running >= TRANSCRIPTIONS_IN_FLIGHT_PER_NAMESPACE) return httpError(c, { code: 'rate_limited', error: 'another dictation is still being transcribed; try again in a moment' });
    inFlight.set(namespace, running + 1);
    try {
      const data = new Uint8Array(await c.req.arrayBuffer());
      const ack = await transcription.transcribe({ data, durationMs: query.data.durationMs });
      if (!ack.ok) return httpError(c, { code: ack.code, error: ack.error });
      return c.json({ text: ack.text }, 200, { 'cache-control': 'no-store' });
    } finally {
      const left = (inFlight.get(namespace) ?? 1) - 1;
      if (left > 0) inFlight.set(namespace, left);
      else inFlight.delete(namespace);
    }
  });

  return app;
}
