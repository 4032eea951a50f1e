// engine-choice.ts: which recognizer dictation uses, and the sentence that says where its audio
// goes. Pure, so the rule "the hub's endpoint only when the hub has one" is tested without a browser.
import type { VoiceEngine } from './voice-prefs.ts';

/** The preferred recognizer where it exists, else the other, else none (no mic is shown). `hub:
 *  null`: the hub has not said yet whether it has an endpoint; then a person who prefers it gets
 *  none rather than the browser's recognizer in its place (their audio would go to another service). */
export function pickEngine(preferred: VoiceEngine, available: { device: boolean; hub: boolean | null }): VoiceEngine | null {
  if (available.hub === null && preferred === 'hub') return null;
  if (available[preferred]) return preferred;
  if (available.device) return 'device';
  return available.hub ? 'hub' : null;
}

export function whereAudioGoes(engine: VoiceEngine, host: string | null): string {
  return engine === 'hub' ? `Audio goes to ${host ?? 'the transcription service'} via your hub; nothing is kept.` : 'Audio goes to your browser’s own speech recognition.';
}
