// still-screen.tsx: a tool call's screen as it was, over the live terminal, when the live terminal
// has no row to scroll back to (claude 2.1.330 draws in the alternate screen, which keeps no
// history). The runner kept that screen (moments.ts `still`); this draws it read-only, highlights
// the call's row, and goes back to live on request. The live terminal keeps streaming beneath.
import { useEffect, useRef } from 'react';
import type { MomentStill } from './moments.ts';
import { highlightMoment } from './highlight.ts';
import { createWidthFit, createXterm } from './xterm.ts';
import './terminal.css';

/** claude hides its cursor; a still shows none either. */
const HIDE_CURSOR = '\x1b[?25l';

export function StillScreen({ still, tool, hint, onClose }: { still: MomentStill; tool: string; hint: string; onClose: () => void }) {
  const hostRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const { term } = createXterm({ scrollback: 0, disableStdin: true, cursorBlink: false, allowProposedApi: true });
    term.resize(still.cols, still.rows);
    term.open(host);
    const widthFit = createWidthFit({ term, host });
    widthFit.apply();
    let stopHighlight = () => {};
    let alive = true;
    term.write(still.data + HIDE_CURSOR, () => {
      if (alive) stopHighlight = highlightMoment({ term, top: 0, tool, hint, steady: true });
    });
    return () => {
      alive = false;
      stopHighlight();
      widthFit.dispose();
      term.dispose();
    };
  }, [still, tool, hint]);

  const label = hint ? `${tool}(${hint.length > 40 ? `${hint.slice(0, 40)}…` : hint})` : tool;
  return (
    <div className="terminal-still" role="region" aria-label="The terminal at that moment">
      <div className="terminal-still-bar">
        <span className="terminal-still-label">
          The screen at <code>{label}</code>, as it was then
        </span>
        <button type="button" className="button button-quiet terminal-fit" onClick={onClose}>
          Back to live
        </button>
      </div>
      <div className="terminal-host" ref={hostRef} />
    </div>
  );
}
