// composer.tsx: where a message to claude is written. On a desktop Enter sends and Shift+Enter
// adds a line; on a touch screen Enter adds a line and the Send button sends (a phone keyboard's
// Enter key is the only way to get a newline there). Stop appears while a turn runs.
// Files come from the paperclip (the phone's photo or file picker) or a paste; each uploads at once
// and waits above the text with a preview and a remove button (composer-attachments.ts). Text that
// starts with `/` lists the session's slash commands (slash-menu.tsx). The microphone comes from the
// route (lib/voice-slot.ts): dictated words are added to the text, never sent on their own.
import { forwardRef, Suspense, useContext, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type ClipboardEvent, type Dispatch, type KeyboardEvent, type RefObject, type SetStateAction } from 'react';
import type { SlashCommand } from '@tether/shared';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconAttach, IconFile, IconSend, IconStop, IconX } from '../../lib/ui/icons.tsx';
import { useSessionCommands } from '../../lib/queries.ts';
import { useComposerAttachments, type PendingAttachment } from './composer-attachments.ts';
import { filterSlashCommands, slashCommandOf, slashQuery } from './slash-filter.ts';
import { SLASH_MENU_ID, SlashMenu, slashOptionId } from './slash-menu.tsx';
import { ComposerVoiceContext } from '../../lib/voice-slot.ts';
import './composer.css';

/** A Stop that the hub accepted but that never ended the turn (runner gone?) may be pressed again
 *  after this long. */
const STOP_RETRY_MS = 10_000;

/** Tallest the box grows before it scrolls, as a share of the screen: the chat must stay visible. */
const MAX_HEIGHT_SHARE = 0.4;

/** What the file picker offers: what the hub takes (it checks the bytes), text files by their names. */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/*,application/pdf,text/*,.md,.json,.log,.csv,.yaml,.yml,.toml,.ts,.tsx,.js,.py,.go,.rs,.sh';

export type ComposerHandle = { setText: (text: string) => void; focus: () => void };

export type ComposerProps = {
  sessionId: string;
  /** A PTY session's picker commands (e.g. /model) are answered in the terminal: the list says so. */
  launchKind: 'pty' | 'headless';
  onSend: (message: { text: string; attachments: string[] }) => void;
  onStop: () => Promise<void>;
  running: boolean;
  placeholder?: string;
};

function isTouchFirst(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(pointer: coarse)').matches;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function AttachmentChip({ item, onRemove }: { item: PendingAttachment; onRemove: () => void }) {
  const status = item.state === 'uploading' ? 'Uploading…' : item.state === 'failed' ? (item.error ?? "Couldn't upload") : formatSize(item.size);
  return (
    <li className="attachment-chip" data-state={item.state}>
      {item.preview ? <img className="attachment-thumb" src={item.preview} alt="" /> : <IconFile size={22} className="attachment-icon" />}
      <span className="attachment-text">
        <bdi className="attachment-name">{item.name}</bdi>
        <span className="attachment-status" role={item.state === 'failed' ? 'alert' : undefined}>
          {item.state === 'uploading' ? <Spinner size={12} /> : null}
          {status}
        </span>
      </span>
      <button type="button" className="attachment-remove" onClick={onRemove} aria-label={`Remove ${item.name}`} title="Remove">
        <IconX size={14} />
      </button>
    </li>
  );
}

export const Composer = forwardRef<ComposerHandle, ComposerProps>(function Composer(props, ref) {
  const [text, setText] = useState('');
  const areaRef = useRef<HTMLTextAreaElement>(null);
  const files = useComposerAttachments(props.sessionId);

  // ---- slash commands: listed while a command name is typed, until Esc or a pick
  const query = slashQuery(text);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const menuOpen = query !== null && dismissed !== text;
  const commands = useSessionCommands(props.sessionId, query !== null);
  const matches = useMemo(() => (query === null ? [] : filterSlashCommands(commands.data?.commands ?? [], query)), [commands.data, query]);
  const [active, setActive] = useState(0);
  useLayoutEffect(() => setActive(0), [query]);
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));
  const picked = slashCommandOf(text);
  const pickerHint = props.launchKind === 'pty' && picked !== null && query === null ? commands.data?.commands.find((c) => c.name === picked && c.opensPicker) : undefined;

  useImperativeHandle(ref, () => ({
    setText: (value) => {
      setText(value);
      areaRef.current?.focus();
    },
    focus: () => areaRef.current?.focus(),
  }));

  useGrowWithText(areaRef, text);
  const { stopping, stopError, stop } = useStopTurn(props);
  const canSend = !files.uploading && (text.trim().length > 0 || files.ready > 0);

  function send() {
    if (!canSend) return;
    props.onSend({ text, attachments: files.take() });
    setText('');
  }

  function pick(command: SlashCommand) {
    setText(`/${command.name} `);
    areaRef.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (menuOpen && matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((activeIndex + step + matches.length) % matches.length);
        return;
      }
      if ((event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) || event.key === 'Tab') {
        event.preventDefault();
        pick(matches[activeIndex]!);
        return;
      }
    }
    if (menuOpen && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(text);
      return;
    }
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    if (event.shiftKey || event.altKey || isTouchFirst()) return; // a newline
    event.preventDefault();
    send();
  }

  function onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
    const pasted = [...event.clipboardData.files];
    if (pasted.length === 0) return;
    // A screenshot pasted: attached, not pasted as text (a copied file may carry its name as text too).
    event.preventDefault();
    files.add(pasted);
  }

  const menuState = commands.isError ? 'error' : commands.data ? 'ready' : 'loading';
  const listShown = menuOpen && matches.length > 0;
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
      {menuOpen ? <SlashMenu commands={matches} active={activeIndex} pty={props.launchKind === 'pty'} state={menuState} onPick={pick} onHover={setActive} /> : null}
      <p className="sr-only" role="status">
        {listShown ? `${matches.length} ${matches.length === 1 ? 'command' : 'commands'}; arrow keys to choose, Enter to insert, Escape to close.` : ''}
      </p>
      {pickerHint ? (
        <p className="composer-hint" role="note">
          /{pickerHint.name} opens claude's own picker: answer it in the Terminal tab.
        </p>
      ) : null}
      <ComposerAttachments files={files} />
      <div className="composer-row">
        <AttachPicker onFiles={files.add} />
        <ComposerVoiceSlot sessionId={props.sessionId} setText={setText} areaRef={areaRef} />
        <textarea
          ref={areaRef}
          className="composer-input"
          value={text}
          rows={1}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          placeholder={props.placeholder ?? 'Message the agent, or / for commands'}
          aria-label="Message"
          aria-autocomplete="list"
          aria-controls={listShown ? SLASH_MENU_ID : undefined}
          aria-activedescendant={listShown ? slashOptionId(activeIndex) : undefined}
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

/** The paperclip: the phone's photo or file picker (a hidden input the button opens). */
function AttachPicker({ onFiles }: { onFiles: (files: File[]) => void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileRef}
        type="file"
        multiple
        accept={ACCEPT}
        hidden
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])]);
          event.target.value = '';
        }}
      />
      <button type="button" className="round-button round-button-attach" onClick={() => fileRef.current?.click()} aria-label="Attach a photo or file" title="Attach a photo or file">
        <IconAttach size={20} />
      </button>
    </>
  );
}

/** The route's voice controls (lib/voice-slot.ts), loaded on demand; none without a provider.
 *  Dictated words join what is typed; they are never sent on their own. */
function ComposerVoiceSlot(props: { sessionId: string; setText: Dispatch<SetStateAction<string>>; areaRef: RefObject<HTMLTextAreaElement | null> }) {
  const Voice = useContext(ComposerVoiceContext);
  if (!Voice) return null;
  const onText = (words: string) => {
    props.setText((typed) => (typed.trim() ? `${typed.trimEnd()} ${words}` : words));
    props.areaRef.current?.focus();
  };
  return (
    <Suspense fallback={null}>
      <Voice sessionId={props.sessionId} onText={onText} />
    </Suspense>
  );
}

/** The files about to go with the message, and what went wrong adding one. */
function ComposerAttachments({ files }: { files: ReturnType<typeof useComposerAttachments> }) {
  if (files.items.length === 0 && !files.notice) return null;
  return (
      <div className="composer-attachments">
        {files.items.length > 0 ? (
          <ul className="attachment-list" aria-label="Attachments">
            {files.items.map((item) => (
              <AttachmentChip key={item.key} item={item} onRemove={() => files.remove(item.key)} />
            ))}
          </ul>
        ) : null}
        {files.notice ? (
          <p className="composer-error" role="alert">
            {files.notice}
          </p>
        ) : null}
      </div>
  );
}

/** Grow with the text, up to a share of the screen. */
function useGrowWithText(areaRef: RefObject<HTMLTextAreaElement | null>, text: string) {
  useLayoutEffect(() => {
    const area = areaRef.current;
    if (!area) return;
    area.style.height = 'auto';
    area.style.height = `${Math.min(area.scrollHeight, window.innerHeight * MAX_HEIGHT_SHARE)}px`;
  }, [areaRef, text]);
}

/** Stop for the running turn: busy until the turn ends (or STOP_RETRY_MS, to let a person press
 *  again), and a refusal kept to show. */
function useStopTurn(props: { running: boolean; onStop: () => Promise<unknown> }) {
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);
  useLayoutEffect(() => {
    if (!props.running) {
      setStopping(false);
      setStopError(null);
    }
  }, [props.running]);
  const stop = async () => {
    setStopping(true);
    setStopError(null);
    try {
      await props.onStop();
      setTimeout(() => setStopping(false), STOP_RETRY_MS);
    } catch (error) {
      setStopping(false);
      setStopError(error instanceof Error ? error.message : String(error));
    }
  };
  return { stopping, stopError, stop };
}
