// engines.ts: the two ways words get out of a microphone. `device`: the browser's own speech
// recognition (webkitSpeechRecognition / SpeechRecognition; the browser's speech service hears the
// audio, the page never holds it). `hub`: MediaRecorder audio posted to the hub, which forwards it
// to its transcription endpoint (hub/src/transcription) and keeps nothing.
import { TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_SECONDS } from '@tether/shared/wire';
import { hubApi } from '../../lib/hub.ts';

type RecognitionEvent = { results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> };
type Recognition = {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  maxAlternatives: number;
  start(): void;
  stop(): void;
  abort(): void;
  onresult: ((event: RecognitionEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
};

function recognizerClass(): (new () => Recognition) | null {
  const w = window as unknown as { SpeechRecognition?: new () => Recognition; webkitSpeechRecognition?: new () => Recognition };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

export function hasBrowserRecognition(): boolean {
  return typeof window !== 'undefined' && recognizerClass() !== null;
}

export function hasRecorder(): boolean {
  return typeof MediaRecorder !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

const RECOGNITION_ERRORS: Record<string, string> = {
  'not-allowed': 'Microphone access was refused: allow it in the browser’s site settings.',
  'service-not-allowed': 'This browser’s speech service is off.',
  network: 'The browser’s speech service could not be reached.',
  'no-speech': 'Heard nothing. Try again closer to the microphone.',
  'audio-capture': 'No microphone found.',
};

export type Listening = { stop(): void };

/** One utterance through the browser's recognizer: `onText` with the final words, then `onEnd`. */
export function recognizeOnce(handlers: { onText(text: string): void; onError(message: string): void; onEnd(): void }): Listening {
  const Recognizer = recognizerClass();
  if (!Recognizer) throw new Error('no speech recognition in this browser');
  const recognition = new Recognizer();
  recognition.lang = navigator.language || 'en-US';
  recognition.interimResults = false;
  recognition.continuous = false;
  recognition.maxAlternatives = 1;
  recognition.onresult = (event) => {
    const words = Array.from(event.results)
      .filter((r) => r.isFinal)
      .map((r) => r[0]?.transcript ?? '')
      .join(' ')
      .trim();
    if (words) handlers.onText(words);
  };
  recognition.onerror = (event) => {
    if (event.error !== 'aborted') handlers.onError(RECOGNITION_ERRORS[event.error] ?? `Speech recognition failed (${event.error}).`);
  };
  recognition.onend = () => handlers.onEnd();
  recognition.start();
  return { stop: () => recognition.stop() };
}

/** What MediaRecorder writes here, in the order the hub's endpoint handles them best. */
const RECORDING_TYPES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4', 'audio/ogg;codecs=opus'];

export type Recording = {
  /** Ends the recording: its audio (one blob of the recorder's type) and how long it ran. */
  finish(): Promise<{ audio: Blob; durationMs: number }>;
  cancel(): void;
};

/** Starts recording from the microphone (asks for it); ends itself at TRANSCRIPTION_MAX_SECONDS. */
export async function startRecording(options: { onLimit: () => void }): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  const mimeType = RECORDING_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : {});
  const chunks: Blob[] = [];
  let bytes = 0;
  const startedAt = performance.now();
  recorder.ondataavailable = (event) => {
    chunks.push(event.data);
    bytes += event.data.size;
    if (bytes > TRANSCRIPTION_MAX_BYTES * 0.95) options.onLimit();
  };
  const stopped = new Promise<void>((resolve) => (recorder.onstop = () => resolve()));
  const release = () => stream.getTracks().forEach((t) => t.stop());
  const limit = setTimeout(options.onLimit, TRANSCRIPTION_MAX_SECONDS * 1000 - 500);
  recorder.start(1000);
  return {
    async finish() {
      clearTimeout(limit);
      const durationMs = performance.now() - startedAt;
      if (recorder.state !== 'inactive') recorder.stop();
      await stopped;
      release();
      // The container type without codec parameters: what the hub checks the bytes against.
      const type = (recorder.mimeType || 'audio/webm').split(';')[0]!;
      return { audio: new Blob(chunks, { type }), durationMs };
    },
    cancel() {
      clearTimeout(limit);
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
}

/** The hub's transcription of a finished recording. */
export async function transcribe(recording: { audio: Blob; durationMs: number }): Promise<string> {
  const result = await hubApi.transcribe(recording);
  return result.text.trim();
}

/** One short answer, heard with `engine`: the browser's recognizer (until it ends or `maxMs`), or
 *  `maxMs` of recording transcribed by the hub. Resolves with the words ('' for none). */
export function listenOnce(engine: 'device' | 'hub', maxMs: number): Promise<string> {
  if (engine === 'device') {
    return new Promise((resolve, reject) => {
      let words = '';
      const listening = recognizeOnce({ onText: (text) => (words = text), onError: (message) => reject(new Error(message)), onEnd: () => resolve(words) });
      setTimeout(() => listening.stop(), maxMs);
    });
  }
  return (async () => {
    const recording = await startRecording({ onLimit: () => {} });
    await new Promise((resolve) => setTimeout(resolve, maxMs));
    return transcribe(await recording.finish());
  })();
}

/** A getUserMedia or recorder failure as a sentence for the person. */
export function microphoneError(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'Microphone access was refused: allow it in the browser’s site settings (it needs https).';
  if (name === 'NotFoundError') return 'No microphone found.';
  return error instanceof Error ? error.message : String(error);
}
