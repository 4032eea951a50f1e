// terminal-view.tsx: the live xterm of a PTY session, mirrored through the hub. Loaded lazily
// (xterm is ~100 KB gzip and most visits never open it) and streaming only while it is on screen.
//
//   mount / visible / reconnect ─terminal:subscribe {since}─► hub ─snapshot | bytes(offset)─► stream ─► xterm
//   xterm.onData (+ sticky Ctrl/Alt) and quick keys ─terminal:input─► hub ─► PTY (if this viewer may write)
//   "Take control" / "Fit to screen" ─terminal:resize {fit: true}─► hub ─terminal:size {owner}─► every viewer resizes
//   (typing here takes control too; while a desk terminal is attached it owns the size and nobody can take it)
//
//   "Show in terminal" on a tool card ─► `jump` {moment} ─► moments.ts (offset → row) ─► scroll + highlight
//
// Invariant: the screen only ever shows bytes in order (terminal-stream.ts); a hidden tab holds no
// subscription, so nobody streams for a screen nobody looks at.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Terminal } from '@xterm/xterm';
import type { FitAddon } from '@xterm/addon-fit';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { isFinalStatus, type Session, type TerminalMoment, type TerminalSizeNotice, type TerminalSnapshotMarks } from '@tether/shared';
import { TERMINAL_ACK_BYTES, toBytes } from '@tether/shared/wire';
import { useConnectionState } from '../../lib/queries.ts';
import { getSocket, requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { applyModifiers, type Modifiers } from './keys.ts';
import { QuickKeys } from './quick-keys.tsx';
import { createTerminalStream } from './terminal-stream.ts';
import { createMomentMap, type MomentMap, type MomentStill } from './moments.ts';
import { StillScreen } from './still-screen.tsx';
import { highlightMoment } from './highlight.ts';
import { createWidthFit, createXterm, watchXterm } from './xterm.ts';

/** Acks tell the hub how far this viewer has drawn (its flow control). Batched: one per chunk would
 *  double the messages on a busy build log. At once past TERMINAL_ACK_BYTES unacked, else after this
 *  (timer-only acks capped a fast stream at 1 MiB of high water per 100 ms). */
const ACK_INTERVAL_MS = 100;

/** A tool call to show: its moment, and text to find its row by (claude draws `● Bash(ls)`). */
export type TerminalJump = { moment: TerminalMoment; tool: string; hint: string };

export const MOMENT_GONE = "That moment is no longer in the terminal's scrollback.";

type Phase = { kind: 'connecting' } | { kind: 'live' } | { kind: 'gone'; reason: string } | { kind: 'error'; reason: string };

function ownerWords(owner: TerminalSizeNotice['owner'] | null): string {
  switch (owner) {
    case 'you':
      return 'Sized to this screen';
    case 'desk':
      return 'The desk sets the size';
    case 'other':
      return 'Another device sets the size';
    case 'none':
    case null:
      return '';
    default: {
      const never: never = owner;
      return String(never);
    }
  }
}

/** The size button: its words, and what it does, for whoever holds the size now. */
function sizeControl(owner: TerminalSizeNotice['owner'] | null, deskAttached: boolean): { label: string; help: string; disabled: boolean } {
  if (owner === 'desk' || deskAttached) {
    return {
      label: 'Take control',
      help: 'A desk terminal is attached: it sets the size while it stays. Typing here still works; lines may wrap oddly on this screen.',
      disabled: true,
    };
  }
  if (owner === 'you') {
    return {
      label: 'Fit to screen',
      help: 'This screen sets the size. Fit again after rotating the phone or resizing the window.',
      disabled: false,
    };
  }
  return {
    label: 'Take control',
    help:
      owner === 'other'
        ? 'Another device sets the size. Take control to resize the terminal to this screen (typing here does the same); the other device then sees it at your size.'
        : 'Nobody has claimed the size yet. Take control to resize the terminal to this screen (typing here does the same).',
    disabled: false,
  };
}

export function TerminalView({ session, readOnly = false, jump = null }: { session: Session; readOnly?: boolean; jump?: TerminalJump | null }) {
  const sessionId = session.id;
  const hostRef = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal | null>(null);
  const fitRef = useRef<FitAddon | null>(null);
  const widthFitRef = useRef<ReturnType<typeof createWidthFit> | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'connecting' });
  const connection = useConnectionState();
  const [size, setSize] = useState<{ cols: number; rows: number; owner: TerminalSizeNotice['owner'] | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const [modifiers, setModifiers] = useState<Modifiers>({ ctrl: false, alt: false });
  const modifiersRef = useRef(modifiers);
  modifiersRef.current = modifiers;
  const momentsRef = useRef<MomentMap | null>(null);
  /** A moment shown as the screen the runner kept (no row of the live terminal to scroll to). */
  const [still, setStill] = useState<{ still: MomentStill; tool: string; hint: string } | null>(null);
  /** The jump asked for and not done yet (its bytes may still be on the way). */
  const jumpRef = useRef<TerminalJump | null>(jump);
  const tryJumpRef = useRef<() => void>(() => {});

  const send = useCallback(
    (data: string) => {
      requestHub('terminal:input', { sessionId, data }).catch((error: unknown) => {
        if (error instanceof SocketRequestError && error.code === 'forbidden') setNotice('This device can only watch this terminal.');
        else if (error instanceof SocketRequestError && error.code === 'gone') setNotice('The session has ended.');
      });
    },
    [sessionId],
  );

  useEffect(() => {
    const host = hostRef.current;
    const socket = getSocket();
    if (!host || !socket) return;
    const { term, fit } = createXterm({
      cursorBlink: false,
      // The PTY converts newlines itself; the stream is raw bytes from it.
      convertEol: false,
      // A share link watches: no keystrokes leave this terminal (the hub would refuse them anyway).
      disableStdin: readOnly,
      // Decorations (the brief highlight of a jumped-to row) are still marked experimental.
      allowProposedApi: true,
    });
    term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
    term.open(host);
    termRef.current = term;
    fitRef.current = fit;
    const widthFit = createWidthFit({ term, host });
    widthFitRef.current = widthFit;
    const moments = createMomentMap(term);
    momentsRef.current = moments;
    let stopHighlight = () => {};
    const tryJump = () => {
      const wanted = jumpRef.current;
      if (!wanted) return;
      const place = moments.locate(wanted.moment);
      if (place.kind === 'later') return;
      jumpRef.current = null;
      if (place.kind === 'gone') {
        setNotice(MOMENT_GONE);
        return;
      }
      setNotice(null);
      if (place.kind === 'still') {
        setStill({ still: place.still, tool: wanted.tool, hint: wanted.hint });
        return;
      }
      setStill(null);
      term.scrollToLine(place.line);
      stopHighlight();
      stopHighlight = highlightMoment({ term, top: place.line, tool: wanted.tool, hint: wanted.hint });
    };
    tryJumpRef.current = tryJump;

    let alive = true;
    let subscribed = false;
    let acked = 0;
    let ackTimer: ReturnType<typeof setTimeout> | null = null;

    const stream = createTerminalStream({
      reset: (snapshot) => {
        term.reset();
        term.resize(snapshot.cols, snapshot.rows);
        widthFit.apply();
        term.write(snapshot.data, () => {
          moments.snapshot(snapshot);
          tryJump();
        });
        setSize((current) => ({ cols: snapshot.cols, rows: snapshot.rows, owner: current?.owner ?? null }));
      },
      write: (data, end) =>
        term.write(data, () => {
          moments.drew(end);
          if (jumpRef.current) tryJump();
          scheduleAck();
        }),
      resync: (since) => void subscribe(since),
    });

    function sendAck() {
      if (ackTimer) clearTimeout(ackTimer);
      ackTimer = null;
      const next = stream.next();
      if (!alive || !subscribed || next === null || next <= acked) return;
      acked = next;
      requestHub('terminal:ack', { sessionId, offset: next }).catch(() => {});
    }

    function scheduleAck() {
      const next = stream.next();
      if (next !== null && next - acked >= TERMINAL_ACK_BYTES) sendAck();
      else ackTimer ??= setTimeout(sendAck, ACK_INTERVAL_MS);
    }

    async function subscribe(since: number | null) {
      stream.begin(since);
      try {
        const ack = await requestHub('terminal:subscribe', since === null ? { sessionId } : { sessionId, since });
        if (!alive) return;
        subscribed = true;
        if (ack.mode === 'bytes' && stream.next() === null) stream.begin(ack.offset);
        setPhase({ kind: 'live' });
        reportSize();
      } catch (error) {
        if (!alive) return;
        if (error instanceof SocketRequestError && error.code === 'gone') setPhase({ kind: 'gone', reason: error.message });
        else setPhase({ kind: 'error', reason: error instanceof Error ? error.message : String(error) });
      }
    }

    function unsubscribe() {
      if (!subscribed) return;
      subscribed = false;
      requestHub('terminal:unsubscribe', { sessionId }).catch(() => {});
    }

    /** Tells the hub what would fit here, without taking control: used once this viewer types. */
    function reportSize() {
      if (readOnly) return; // a watcher never proposes a size
      const dims = widthFit.atBaseSize(() => fit.proposeDimensions());
      if (!dims || !subscribed || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) return;
      const cols = Math.max(2, Math.min(1000, Math.floor(dims.cols)));
      const rows = Math.max(1, Math.min(500, Math.floor(dims.rows)));
      requestHub('terminal:resize', { sessionId, cols, rows, fit: false }).catch(() => {});
    }

    const onSnapshot = (payload: { sessionId: string; offset: number; cols: number; rows: number; data: string; marks?: TerminalSnapshotMarks }) => {
      if (payload.sessionId === sessionId) stream.snapshot(payload);
    };
    const onOutput = (payload: { sessionId: string; offset: number; data: Uint8Array | ArrayBuffer }) => {
      if (payload.sessionId === sessionId) stream.bytes(payload.offset, toBytes(payload.data));
    };
    const onSize = (payload: TerminalSizeNotice) => {
      if (payload.sessionId !== sessionId) return;
      if (term.cols !== payload.cols || term.rows !== payload.rows) {
        term.resize(payload.cols, payload.rows);
        widthFit.apply();
      }
      setSize({ cols: payload.cols, rows: payload.rows, owner: payload.owner });
    };
    const onConnect = () => void subscribe(stream.next());
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') unsubscribe();
      else if (!subscribed) void subscribe(stream.next());
    };

    socket.on('terminal:snapshot', onSnapshot);
    socket.on('terminal:output', onOutput);
    socket.on('terminal:size', onSize);
    socket.on('connect', onConnect);
    document.addEventListener('visibilitychange', onVisibility);

    const data = term.onData((typed) => {
      if (readOnly) return;
      const mods = modifiersRef.current;
      if (mods.ctrl || mods.alt) setModifiers({ ctrl: false, alt: false });
      send(applyModifiers(typed, mods));
    });
    const unwatch = watchXterm({
      term,
      host,
      onResized: () => {
        widthFit.apply();
        reportSize();
      },
    });

    if (document.visibilityState !== 'hidden') void subscribe(null);

    return () => {
      alive = false;
      if (ackTimer) clearTimeout(ackTimer);
      unwatch();
      document.removeEventListener('visibilitychange', onVisibility);
      socket.off('terminal:snapshot', onSnapshot);
      socket.off('terminal:output', onOutput);
      socket.off('terminal:size', onSize);
      socket.off('connect', onConnect);
      unsubscribe();
      stopHighlight();
      moments.dispose();
      momentsRef.current = null;
      tryJumpRef.current = () => {};
      data.dispose();
      widthFit.dispose();
      term.dispose();
      termRef.current = null;
      fitRef.current = null;
      widthFitRef.current = null;
    };
  }, [sessionId, send, readOnly]);

  // A new jump while the terminal is open (another card, the same card again).
  useEffect(() => {
    if (!jump) return;
    jumpRef.current = jump;
    tryJumpRef.current();
  }, [jump]);

  const fitToScreen = () => {
    const fit = fitRef.current;
    const dims = fit ? (widthFitRef.current?.atBaseSize(() => fit.proposeDimensions()) ?? fit.proposeDimensions()) : undefined;
    if (!dims || !Number.isFinite(dims.cols) || !Number.isFinite(dims.rows)) return;
    const cols = Math.max(2, Math.min(1000, Math.floor(dims.cols)));
    const rows = Math.max(1, Math.min(500, Math.floor(dims.rows)));
    requestHub('terminal:resize', { sessionId, cols, rows, fit: true }).catch((error: unknown) => {
      setNotice(error instanceof Error ? `Couldn't resize: ${error.message}` : "Couldn't resize");
    });
    termRef.current?.focus();
  };

  const onQuickKey = (data: string) => {
    const mods = modifiersRef.current;
    if (mods.ctrl || mods.alt) setModifiers({ ctrl: false, alt: false });
    send(mods.alt ? `\x1b${data}` : data);
  };

  // An ended session's terminal still shows its last screen, but nothing reads keys any more; keys
  // typed while the hub link is down would go nowhere. The keys wait for both.
  const ended = isFinalStatus(session.status);
  const live = phase.kind === 'live' && connection.kind === 'connected' && !ended;
  const control = sizeControl(size?.owner ?? null, session.deskAttached);
  return (
    <div className="terminal-screen">
      <div className="terminal-bar">
        <span className="terminal-size" role="status">
          {phase.kind === 'connecting' ? (
            <>
              <Spinner size={12} /> Connecting…
            </>
          ) : phase.kind === 'live' && ended ? (
            'Session ended: its last screen'
          ) : phase.kind === 'live' ? (
            size ? `${size.cols}×${size.rows}${ownerWords(size.owner) ? ` · ${ownerWords(size.owner)}` : ''}` : 'Live'
          ) : phase.kind === 'gone' ? (
            'Session ended: the terminal is gone'
          ) : (
            `Terminal unavailable: ${phase.reason}`
          )}
        </span>
        {readOnly ? (
          <span className="badge">Read-only</span>
        ) : (
          <>
            <button
              type="button"
              className="icon-button terminal-help-button"
              aria-label="About the terminal size"
              title={control.help}
              aria-expanded={helpOpen}
              aria-controls="terminal-size-help"
              onClick={() => setHelpOpen((v) => !v)}
            >
              ?
            </button>
            <button
              type="button"
              className="button button-quiet terminal-fit"
              onClick={fitToScreen}
              disabled={!live || control.disabled}
              title={control.help}
              aria-describedby={helpOpen ? 'terminal-size-help' : undefined}
            >
              {control.label}
            </button>
          </>
        )}
      </div>
      {helpOpen && !readOnly ? (
        <p className="terminal-help" id="terminal-size-help">
          {control.help}
        </p>
      ) : null}
      {notice ? (
        <p className="terminal-notice" role="alert">
          {notice}
        </p>
      ) : null}
      <div className="terminal-stage">
        <div className="terminal-host" ref={hostRef} aria-label="Terminal" role="region" />
        {still ? <StillScreen still={still.still} tool={still.tool} hint={still.hint} onClose={() => setStill(null)} /> : null}
      </div>
      {readOnly ? null : (
        <QuickKeys
          onKey={onQuickKey}
          modifiers={modifiers}
          onToggle={(modifier) => setModifiers((current) => ({ ...current, [modifier]: !current[modifier] }))}
          disabled={!live}
        />
      )}
    </div>
  );
}
