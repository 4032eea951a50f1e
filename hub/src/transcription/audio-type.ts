// audio-type.ts: what a dictation's bytes are, read from the bytes (never from the client's word),
// and how long a WAV runs by its own header. Anything that is not one of the forwarded formats is
// refused before it leaves the hub.
import type { TranscriptionMediaType } from '@tether/shared';

export type AudioType = { mediaType: TranscriptionMediaType; extension: string };

function startsWith(data: Uint8Array, bytes: readonly number[], at = 0): boolean {
  return bytes.every((b, i) => data[at + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The format by its magic bytes; null when it is none of TRANSCRIPTION_MEDIA_TYPES. */
export function sniffAudio(data: Uint8Array): AudioType | null {
  if (data.length < 12) return null;
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WAVE'), 8)) return { mediaType: 'audio/wav', extension: 'wav' };
  // EBML header: WebM (Matroska) as Chromium's MediaRecorder writes it.
  if (startsWith(data, [0x1a, 0x45, 0xdf, 0xa3])) return { mediaType: 'audio/webm', extension: 'webm' };
  if (startsWith(data, ascii('OggS'))) return { mediaType: 'audio/ogg', extension: 'ogg' };
  if (startsWith(data, ascii('ftyp'), 4)) return { mediaType: 'audio/mp4', extension: 'mp4' };
  // MP3: an ID3 tag, or an MPEG audio frame sync (11 bits set).
  if (startsWith(data, ascii('ID3')) || (data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0)) return { mediaType: 'audio/mpeg', extension: 'mp3' };
  return null;
}

/** A PCM WAV's length in seconds from its `fmt ` byte rate and `data` size; null when the header
 *  cannot say (then the recorder's stated duration and the size cap stand). */
export function wavSeconds(data: Uint8Array): number | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let byteRate = 0;
  for (let at = 12; at + 8 <= data.length; ) {
    const id = String.fromCharCode(...data.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    if (id === 'fmt ' && at + 16 <= data.length) byteRate = view.getUint32(at + 8 + 8, true);
    if (id === 'data') return byteRate > 0 ? Math.min(size, data.length - at - 8) / byteRate : null;
    at += 8 + size + (size % 2);
  }
  return null;
}
