// use-dictation.ts: the mic button's state: idle → listening → (hub: transcribing) → idle, with
// the words handed to the composer and a failure kept to show. Leaving the screen cancels.
import { useCallback, useEffect, useRef, useState } from 'react';
import { microphoneError, recognizeOnce, startRecording, transcribe, type Recording } from './engines.ts';
import type { VoiceEngine } from './voice-prefs.ts';

export type DictationPhase = 'idle' | 'listening' | 'transcribing';

export function useDictation(options: { engine: VoiceEngine | null; onText: (text: string) => void }) {
  const [phase, setPhase] = useState<DictationPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const active = useRef<{ stop(): void; cancel(): void } | null>(null);
  const onText = useRef(options.onText);
  onText.current = options.onText;

  useEffect(() => () => active.current?.cancel(), []);

  const finish = useCallback(async (recording: Recording) => {
    active.current = null;
    setPhase('transcribing');
    try {
      const text = await transcribe(await recording.finish());
      if (text) onText.current(text);
      else setError('Heard nothing. Try again closer to the microphone.');
    } catch (err) {
      setError(`Couldn't transcribe: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setPhase('idle');
    }
  }, []);

  const start = useCallback(async () => {
    if (active.current || !options.engine) return;
    setError(null);
    if (options.engine === 'device') {
      try {
        const listening = recognizeOnce({
          onText: (text) => onText.current(text),
          onError: setError,
          onEnd: () => {
            active.current = null;
            setPhase('idle');
          },
        });
        active.current = { stop: listening.stop, cancel: listening.stop };
        setPhase('listening');
      } catch (err) {
        setError(microphoneError(err));
      }
      return;
    }
    try {
      // The recording stops itself at the cap; a second tap stops it sooner.
      const holder: { recording?: Recording } = {};
      const recording = await startRecording({ onLimit: () => holder.recording && active.current && void finish(holder.recording) });
      holder.recording = recording;
      active.current = { stop: () => void finish(recording), cancel: () => recording.cancel() };
      setPhase('listening');
    } catch (err) {
      setError(microphoneError(err));
    }
  }, [finish, options.engine]);

  const stop = useCallback(() => active.current?.stop(), []);
  const cancel = useCallback(() => {
    active.current?.cancel();
    active.current = null;
    setPhase('idle');
  }, []);
  return { phase, error, start, stop, cancel, clearError: () => setError(null) };
}
