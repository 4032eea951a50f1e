// shell-view.tsx: a login shell on a machine (shared/src/shell.ts), full screen, with the quick keys
// of the session terminal. Loaded lazily with its route. This tab's shell is its own: its viewer id
// (shell-viewer-id.ts) names it, so another phone or tab gets another shell, and a reload (or a
// reconnect) of this tab reattaches to the same one.
//
//   mount / reconnect ─shell:open {machineId, viewerId, cols, rows}─► hub ─► daemon
//   shell:output (reset: the held screen of a reattached shell; then bytes by offset) ─► xterm
//   xterm.onData + quick keys ─shell:input─► …   fit ─shell:resize─► …   unmount ─shell:leave (kept 5 min)
import { useEffect, useRef, useState } from 'react';
import type { Machine } from '@tether/shared';
import { getSocket, requestHub, SocketRequestError } from '../../lib/socket.ts';
import { Spinner } from '../../lib/ui/badge.tsx';
import { IconBack } from '../../lib/ui/icons.tsx';
import { applyModifiers } from './keys.ts';
import { useConnectionState } from '../../lib/queries.ts';
import { QuickKeys } from './quick-keys.tsx';
import { useStickyModifiers } from './sticky-modifiers.ts';
import { shellViewerId } from './shell-viewer-id.ts';
import { createXterm, watchXterm } from './xterm.ts';
import './terminal.css';

type Phase = { kind: 'opening' } | { kind: 'live'; reattached: boolean } | { kind: 'ended'; reason: string } | { kind: 'error'; reason: string };

export function ShellView({ machine, cwd, onBack }: { machine: Machine; cwd?: string; onBack: () => void }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const shellIdRef = useRef<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'opening' });
  const connection = useConnectionState();
  const [attempt, setAttempt] = useState(0);
  const sticky = useStickyModifiers();

  const send = (data: string) => {
    const shellId = shellIdRef.current;
    if (!shellId) return;
    requestHub('shell:input', { shellId, data }).catch(() => {});
  };
  const sendRef = useRef(send);
  sendRef.current = send;

  useEffect(() => {
    const host = hostRef.current;
    const socket = getSocket();
    if (!host || !socket) return;
    const { term, fit } = createXterm({ cursorBlink: true });
    term.open(host);
    let alive = true;
    /** Bytes drawn so far, by absolute offset: a repeat is skipped, never drawn twice. */
    let drawn = 0;

    const size = () => {
      try {
        fit.fit();
      } catch {
        // not laid out yet
      }
      return { cols: Math.max(2, Math.min(1000, term.cols)), rows: Math.max(1, Math.min(500, term.rows)) };
    };

    const open = async () => {
      setPhase({ kind: 'opening' });
      try {
        const viewerId = await shellViewerId();
        if (!alive) return;
        const ack = await requestHub('shell:open', { machineId: machine.id, viewerId, ...(cwd ? { cwd } : {}), ...size() });
        if (!alive) return;
        shellIdRef.current = ack.shellId;
        setPhase({ kind: 'live', reattached: ack.reattached });
        term.focus();
      } catch (error) {
        if (!alive) return;
        setPhase({ kind: 'error', reason: error instanceof SocketRequestError || error instanceof Error ? error.message : String(error) });
      }
    };

    const onOutput = (payload: { shellId: string; offset: number; data: Uint8Array | ArrayBuffer; reset?: boolean }) => {
      // Before the open ack the id is not known yet, but the held screen already comes: one shell per view.
      if (shellIdRef.current && payload.shellId !== shellIdRef.current) return;
      const bytes = payload.data instanceof Uint8Array ? payload.data : new Uint8Array(payload.data);
      if (payload.reset) {
        term.reset();
        drawn = payload.offset;
      }
      const end = payload.offset + bytes.byteLength;
      if (end <= drawn) return;
      term.write(payload.offset < drawn ? bytes.subarray(drawn - payload.offset) : bytes);
      drawn = end;
    };
    const onExit = (payload: { shellId: string; reason: string }) => {
      if (payload.shellId !== shellIdRef.current) return;
      shellIdRef.current = null;
      setPhase({ kind: 'ended', reason: payload.reason });
    };
    const onConnect = () => void open();
    socket.on('shell:output', onOutput);
    socket.on('shell:exit', onExit);
    socket.on('connect', onConnect);

    const typed = term.onData((data) => sendRef.current(applyModifiers(data, sticky.take())));
    const unwatch = watchXterm({
      term,
      host,
      onResized: () => {
        const shellId = shellIdRef.current;
        const next = size();
        if (shellId) requestHub('shell:resize', { shellId, ...next }).catch(() => {});
      },
    });

    if (socket.connected) void open();

    return () => {
      alive = false;
      unwatch();
      socket.off('shell:output', onOutput);
      socket.off('shell:exit', onExit);
      socket.off('connect', onConnect);
      // Leaving keeps the shell for a while: coming back to this page reattaches.
      const shellId = shellIdRef.current;
      shellIdRef.current = null;
      if (shellId) requestHub('shell:leave', { shellId }).catch(() => {});
      typed.dispose();
      term.dispose();
    };
  }, [machine.id, cwd, attempt]);

  const close = () => {
    const shellId = shellIdRef.current;
    if (shellId) requestHub('shell:close', { shellId }).catch(() => {});
  };
  const onQuickKey = (data: string) => send(sticky.take().alt ? `\x1b${data}` : data);

  const live = phase.kind === 'live';
  // Keys typed while the connection to the hub is down would go nowhere: the keys wait for the link as well.
  const keysLive = live && connection.kind === 'connected';
  return (
    <div className="terminal-screen shell-screen">
      <ShellBar machine={machine} phase={phase} onBack={onBack} onClose={close} onRetry={() => setAttempt((n) => n + 1)} />
      <div className="terminal-host" ref={hostRef} aria-label="Shell" role="region" />
      <QuickKeys onKey={onQuickKey} sticky={sticky} disabled={!keysLive} />
    </div>
  );
}

/** The bar above the shell: back, what the shell is doing, and Close or a new try. */
function ShellBar({ machine, phase, onBack, onClose, onRetry }: { machine: Machine; phase: Phase; onBack: () => void; onClose: () => void; onRetry: () => void }) {
  const live = phase.kind === 'live';
  return (
    <div className="terminal-bar">
      <button type="button" className="icon-button shell-back" aria-label="Back" onClick={onBack}>
        <IconBack size={22} />
      </button>
      <span className="terminal-size" role="status">
        {phase.kind === 'opening' ? (
          <>
            <Spinner size={12} /> Opening a shell on {machine.name}…
          </>
        ) : phase.kind === 'live' ? (
          `Shell on ${machine.name}${phase.reattached ? ' · resumed' : ''}`
        ) : phase.kind === 'ended' ? (
          `Shell ended: ${phase.reason}`
        ) : (
          `No shell: ${phase.reason}`
        )}
      </span>
      {live ? (
        <button type="button" className="button button-quiet terminal-fit" onClick={onClose} title="Ends this shell (it also ends 5 minutes after you leave)">
          Close shell
        </button>
      ) : phase.kind === 'opening' ? null : (
        <button type="button" className="button button-quiet terminal-fit" onClick={onRetry}>
          {phase.kind === 'ended' ? 'New shell' : 'Retry'}
        </button>
      )}
    </div>
  );
}
