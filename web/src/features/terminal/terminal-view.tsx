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
// subscription, so nobody streams for a screen nobody looks at. What happens while it is open is
// terminal-controller.ts (a plain object, started and stopped by this view); the xterm itself is
// terminal-screen.ts; this file renders the bar, the notices and the quick keys.
import { useEffect, useRef, useState } from 'react';
import { isFinalStatus, type Session, type TerminalSizeNotice } from '@tether/shared';
import { useConnectionState } from '../../lib/queries.ts';
import { getSocket, requestHub, type WebSocket } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { QuickKeys } from './quick-keys.tsx';
import { useStickyModifiers } from './sticky-modifiers.ts';
import type { MomentStill } from './moments.ts';
import { StillScreen } from './still-screen.tsx';
import { createTerminalController, type PageVisibility, type TerminalController, type TerminalHub, type TerminalJump, type TerminalPhase } from './terminal-controller.ts';
import { openXtermScreen } from './terminal-screen.ts';
import './terminal.css';

export { MOMENT_GONE, type TerminalJump } from './terminal-controller.ts';

/** The app's socket as the controller's hub (its handlers are the socket's own event types). */
function socketHub(socket: WebSocket): TerminalHub {
  return {
    request: requestHub,
    on: (event, handler) => void socket.on(event, handler as never),
    off: (event, handler) => void socket.off(event, handler as never),
  };
}

const documentVisibility: PageVisibility = {
  hidden: () => document.visibilityState === 'hidden',
  onChange(listener) {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

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
  const controllerRef = useRef<TerminalController | null>(null);
  const [phase, setPhase] = useState<TerminalPhase>({ kind: 'connecting' });
  const connection = useConnectionState();
  const [size, setSize] = useState<{ cols: number; rows: number; owner: TerminalSizeNotice['owner'] | null } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const sticky = useStickyModifiers();
  /** A moment shown as the screen the runner kept (no row of the live terminal to scroll to). */
  const [still, setStill] = useState<{ still: MomentStill; tool: string; hint: string } | null>(null);
  /** The jump asked for when the controller starts (later ones go to it directly). */
  const jumpRef = useRef<TerminalJump | null>(jump);

  useEffect(() => {
    const host = hostRef.current;
    const socket = getSocket();
    if (!host || !socket) return;
    const controller = createTerminalController({
      sessionId,
      readOnly,
      hub: socketHub(socket),
      page: documentVisibility,
      openScreen: () => openXtermScreen({ host, readOnly }),
      modifiers: sticky.current,
      jump: jumpRef.current,
      report: {
        phase: setPhase,
        size: ({ cols, rows, owner }) => setSize((current) => ({ cols, rows, owner: owner === undefined ? (current?.owner ?? null) : owner })),
        notice: setNotice,
        still: setStill,
        modifiersUsed: sticky.release,
      },
    });
    controllerRef.current = controller;
    controller.start();
    return () => {
      controller.stop();
      controllerRef.current = null;
    };
  }, [sessionId, readOnly]);

  // A new jump while the terminal is open (another card, the same card again).
  useEffect(() => {
    if (!jump) return;
    jumpRef.current = jump;
    controllerRef.current?.jump(jump);
  }, [jump]);

  const fitToScreen = () => controllerRef.current?.fitToScreen();
  const onQuickKey = (data: string) => controllerRef.current?.quickKey(data);

  // An ended session's terminal still shows its last screen, but nothing reads keys any more; keys
  // typed while the connection to the hub is down would go nowhere. The keys wait for both.
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
        <QuickKeys onKey={onQuickKey} sticky={sticky} disabled={!live} />
      )}
    </div>
  );
}
