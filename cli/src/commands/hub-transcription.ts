// hub-transcription.ts: `tether hub`'s dictation endpoint, read from the environment only (a key on
// the command line would show in `ps`): TETHER_TRANSCRIPTION_URL (an http(s) base, no credentials
// in it), TETHER_TRANSCRIPTION_KEY (optional), TETHER_TRANSCRIPTION_MODEL (default whisper-1).
import { CommandError } from './command.ts';

export const DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';

export function readTranscription(env: Record<string, string | undefined>): { transcription?: { baseUrl: string; apiKey?: string; model: string } } {
  const baseUrl = env.TETHER_TRANSCRIPTION_URL?.trim();
  if (!baseUrl) return {};
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new CommandError('TETHER_TRANSCRIPTION_URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CommandError('TETHER_TRANSCRIPTION_URL must be http(s)');
  if (url.username || url.password) throw new CommandError('TETHER_TRANSCRIPTION_URL must not hold credentials; put the key in TETHER_TRANSCRIPTION_KEY');
  const apiKey = env.TETHER_TRANSCRIPTION_KEY?.trim();
  const model = env.TETHER_TRANSCRIPTION_MODEL?.trim() || DEFAULT_TRANSCRIPTION_MODEL;
  return { transcription: { baseUrl, model, ...(apiKey ? { apiKey } : {}) } };
}
