// voice-controls.tsx: the composer's voice buttons (lazily loaded; lib/voice-slot.ts): the mic,
// which dictates into the text box, and the hands-free switch. A line above the composer says
// where the audio goes while it is heard, and lets the person switch recognizers when both exist:
//   device  the browser's own speech recognition (its speech service hears the audio)
//   hub     a recording sent to the hub, forwarded to its transcription endpoint (host shown)
import { createPortal } from 'react-dom';
import type { ComposerVoiceProps } from '../../lib/voice-slot.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { useHubFeatures } from '../../lib/queries.ts';
import { hasBrowserRecognition, hasRecorder } from './engines.ts';
import { hasSpeechSynthesis, useHandsFree } from './hands-free.ts';
import { useDictation } from './use-dictation.ts';
import { useVoicePrefs, type VoiceEngine } from './voice-prefs.ts';
import { pickEngine, whereAudioGoes } from './engine-choice.ts';
import { IconMic, IconSpeaker } from './voice-icons.tsx';
import './voice.css';

export function VoiceControls({ sessionId, onText }: ComposerVoiceProps) {
  const features = useHubFeatures();
  const [prefs, setPrefs] = useVoicePrefs();
  const host = features?.transcription?.host ?? null;
  const available = { device: hasBrowserRecognition(), hub: features === undefined ? null : host !== null && hasRecorder() };
  const engine = pickEngine(prefs.engine, available);
  const dictation = useDictation({ engine, onText });
  const handsFree = useHandsFree({ sessionId, on: prefs.handsFree, engine });
  const other: VoiceEngine = engine === 'hub' ? 'device' : 'hub';
  const listening = dictation.phase === 'listening';

  const status = dictation.error
    ? { text: dictation.error, alert: true }
    : listening
      ? { text: `Listening… ${whereAudioGoes(engine!, host)}`, alert: false }
      : dictation.phase === 'transcribing'
        ? { text: `Transcribing at ${host ?? 'the hub'}…`, alert: false }
        : null;

  return (
    <>
      {handsFree.note
        ? // Over everything: while a question waits, its sheet takes the composer's place.
          createPortal(
            <p className="voice-listening" role="status">
              {handsFree.note}
            </p>,
            document.body,
          )
        : null}
      {status ? (
        <div className="voice-status" data-alert={status.alert || undefined}>
          <p role={status.alert ? 'alert' : 'status'}>{status.text}</p>
          {listening && available[other] ? (
            <button
              type="button"
              className="voice-switch"
              onClick={() => {
                dictation.cancel();
                setPrefs({ engine: other });
              }}
            >
              {other === 'hub' ? `Use ${host} instead` : 'Use the browser instead'}
            </button>
          ) : null}
          {dictation.error ? (
            <button type="button" className="voice-switch" onClick={dictation.clearError}>
              Dismiss
            </button>
          ) : null}
        </div>
      ) : null}
      {engine ? (
        <button
          type="button"
          className="round-button round-button-voice"
          aria-pressed={listening}
          aria-label={listening ? 'Stop dictating' : 'Dictate'}
          title={`${listening ? 'Stop dictating' : 'Dictate'}. ${whereAudioGoes(engine, host)}`}
          disabled={dictation.phase === 'transcribing'}
          onClick={() => (listening ? dictation.stop() : void dictation.start())}
        >
          {dictation.phase === 'transcribing' ? <Spinner size={16} /> : <IconMic size={20} />}
        </button>
      ) : null}
      {hasSpeechSynthesis() ? (
        <button
          type="button"
          className="round-button round-button-voice"
          aria-pressed={prefs.handsFree}
          aria-label="Hands-free"
          title={prefs.handsFree ? 'Hands-free is on: new replies and requests are read aloud' : 'Hands-free: read new replies and requests aloud'}
          onClick={() => setPrefs({ handsFree: !prefs.handsFree })}
        >
          <IconSpeaker size={20} on={prefs.handsFree} />
        </button>
      ) : null}
    </>
  );
}
