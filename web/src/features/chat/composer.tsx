// composer.tsx: where a message to claude is written. On a desktop Enter sends and Shift+Enter
// adds a line; on a touch screen Enter adds a line and the Send button sends (a phone keyboard's
// Enter key is the only way to get a newline there). Stop appears while a turn runs.
import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconSend, IconStop } from '../../lib/ui/icons.tsx';

/** A Stop that the hub accepted but that never ended the turn (runner gone?) may be pressed again
 *  after this long. */
const STOP_RETRY_MS = 10_000;

/** Tallest the box grows before it scrolls, as a share of the screen: the chat must stay visible. */
const MAX_HEIGHT_SHARE = 0.4;

export type ComposerHandle = { setText: (text: string) => void; focus: () => void };

export type ComposerProps = {
  onSend: (text: string) => void;
  onStop: () => Promise<void>;
  running: boolean;
  placeholder?: string;
};

function isTouchFirst(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches;
}

export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer(props, ref) {
  const [text, setText] = useState('');
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);
  const areaRef = useRef<HTMLTextAreaElement>(null);

  useImperativeHandle(ref, () => ({
    setText: (value) => {
      setText(value);
      areaRef.current?.focus();
    },
    focus: () => areaRef.current?.focus(),
  }));

  // Grow with the text, up to a share of the screen.
  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, window.innerHeight * MAX_HEIGHT_SHARE)}px`;
  }, [text]);

  useLayoutEffect(() => {
    if (!props.running) {
      setStopping(false);
      setStopError(null);
    }
  }, [props.running]);

  const canSend = text.trim().length > 0;

  function send() {
    if (!canSend) return;
    props.onSend(text);
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (event.shiftKey || event.altKey || isTouchFirst()) return; // a newline
    event.preventDefault();
    send();
  }

  async function stop() {
    setStopping(true);
    setStopError(null);
    try {
      await props.onStop();
      setTimeout(() => setStopping(false), STOP_RETRY_MS);
    } catch (error) {
      setStopping(false);
      setStopError(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {stopError ? (
        <p className="composer-error" role="alert">
          Couldn't stop: {stopError}
        </p>
      ) : null}
      <div className="composer-row">
        <textarea
          ref={areaRef}
          className="composer-input"
          value={text}
          rows={1}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={props.placeholder ?? 'Message Claude'}
          aria-label="Message"
          enterKeyHint={isTouchFirst() ? 'enter' : 'send'}
          autoComplete="off"
          spellCheck
        />
        {props.running ? (
          <button
            type="button"
            className="round-button round-button-stop"
            onClick={stop}
            disabled={stopping}
            aria-label="Stop"
            title="Stop the running turn (Esc)"
          >
            {stopping ? <Spinner size={16} /> : <IconStop size={16} />}
          </button>
        ) : null}
        <button type="submit" className="round-button round-button-send" disabled={!canSend} aria-label="Send" title="Send">
          <IconSend size={18} />
        </button>
      </div>
    </form>
  );
});
