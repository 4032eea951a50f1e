// xterm.ts: the one way this app makes a browser xterm, so the session terminal and the web shell
// look and fit the same. The views add what differs (links, read-only, cursor blink).
import { Terminal, type ITerminalOptions } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';

/** Lines kept above the screen for scrolling back on the phone. */
export const SCROLLBACK_LINES = 5_000;
/** Container resizes settle (keyboard opening, rotation) before a viewer reports its size. */
export const RESIZE_SETTLE_MS = 150;

/** A dark terminal in both themes: claude's TUI colors are chosen for dark backgrounds. */
const TERMINAL_THEME = {
  background: '#141416',
  foreground: '#e7e5e0',
  cursor: '#e07a52',
  cursorAccent: '#141416',
  selectionBackground: 'rgba(224, 122, 82, 0.35)',
};

/** A terminal with the fit addon loaded (not yet opened); smaller type on touch screens. */
export function createXterm(options: ITerminalOptions = {}): { term: Terminal; fit: FitAddon } {
  const coarse = window.matchMedia('(pointer: coarse)').matches;
  const term = new Terminal({
    fontFamily: "ui-monospace, 'SF Mono', SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace",
    fontSize: coarse ? 12 : 13.5,
    lineHeight: 1.1,
    scrollback: SCROLLBACK_LINES,
    theme: TERMINAL_THEME,
    ...options,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  return { term, fit };
}
