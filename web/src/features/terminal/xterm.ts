// xterm.ts: the one way this app makes a browser xterm, so the session terminal and the web shell
// look and fit the same. The views add what differs (links, read-only, cursor blink).
import { Terminal, type ITerminalOptions } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import './terminal-fonts.css';

/** Lines kept above the screen for scrolling back on the phone. */
export const SCROLLBACK_LINES = 5_000;
/** Container resizes settle (keyboard opening, rotation) before a viewer reports its size. */
const RESIZE_SETTLE_MS = 150;

/** A dark terminal in both themes: claude's TUI colors are chosen for dark backgrounds. */
const TERMINAL_THEME = {
  background: '#141416',
  // xterm draws dim text (Codex's hints and footer) at half this over the background: #eceae5 keeps
  // that at 4.6:1 (WCAG AA; #e7e5e0 gave 4.47:1 and axe failed it).
  foreground: '#eceae5',
  cursor: '#e07a52',
  cursorAccent: '#141416',
  selectionBackground: 'rgba(224, 122, 82, 0.35)',
};

/** The type may shrink to this share of its size to fit a PTY wider than the view (see fitWidth). */
const MIN_FONT_SCALE = 0.75;

/** The font size a new terminal starts with: smaller type on touch screens. */
export function baseFontSize(): number {
  return window.matchMedia('(pointer: coarse)').matches ? 12 : 13.5;
}

/** System monospace fonts first; 'Tether Symbols' (terminal-fonts.css) only covers what they may lack
 *  (claude's `⎿ ⏵ ⏸ ⏺`; DejaVu Sans Mono has none of them) and loads only when one is shown. */
const FONT_STACK = "ui-monospace, 'SF Mono', SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', 'Tether Symbols', monospace";

/** Makes xterm measure its glyphs again, at the type size it has now. Its DOM renderer sets the row's
 *  letter spacing to (cell width − the width of a "W"), and after a font-size change it can take the
 *  "W" from the old size (seen on a slow machine: 12 px cells with spacing from 13.5 px glyphs, every
 *  glyph 0.9 px left of its cell); it also never measures again when a font finishes loading. A
 *  font-family change makes it drop its width cache and measure both at once, so the family is
 *  re-set to an equivalent string (a trailing space toggled). */
export function remeasureGlyphs(term: Terminal): void {
  const family = term.options.fontFamily ?? FONT_STACK;
  term.options.fontFamily = family.endsWith(' ') ? family.trimEnd() : `${family} `;
}

/** How far (px) the rows' letter spacing may sit from cell width − glyph width before it is stale. */
const SPACING_TOLERANCE_PX = 0.25;
/** Frames to keep checking after a size change: a loaded machine can take xterm's stale measure late. */
const SPACING_CHECK_FRAMES = 30;

/** Checks, frame by frame for a while, that xterm's row letter spacing matches the cell width and
 *  the glyph width at the current size, and re-measures when it does not. One re-measure right
 *  after a size change was not enough on a loaded machine (CI): xterm could still keep the "W"
 *  width of the old size, putting the 120th glyph 15 cells left of its cell. Returns a cancel. */
function settleGlyphs(options: { term: Terminal; host: HTMLElement }): () => void {
  const { term, host } = options;
  const context = document.createElement('canvas').getContext('2d');
  let frame = 0;
  let left = SPACING_CHECK_FRAMES;
  const check = () => {
    frame = 0;
    const rows = host.querySelector<HTMLElement>('.xterm-rows');
    const screen = host.querySelector<HTMLElement>('.xterm-screen');
    if (!rows || !screen || !context || term.cols <= 0) return;
    context.font = `${term.options.fontSize ?? baseFontSize()}px ${term.options.fontFamily ?? FONT_STACK}`;
    const glyph = context.measureText('W'.repeat(20)).width / 20;
    const cell = screen.getBoundingClientRect().width / term.cols;
    const spacing = parseFloat(rows.style.letterSpacing) || 0;
    if (glyph > 0 && cell > 0 && Math.abs(cell - glyph - spacing) > SPACING_TOLERANCE_PX) remeasureGlyphs(term);
    if (--left > 0) frame = requestAnimationFrame(check);
  };
  frame = requestAnimationFrame(check);
  return () => cancelAnimationFrame(frame);
}

/** Re-measures whenever fonts finish loading (a web or system font arriving after the first paint
 *  changes every glyph's width). Returns the teardown. */
function remeasureOnFontLoad(term: Terminal, onLoaded: () => void): () => void {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts) return () => {};
  let live = true;
  const again = () => {
    if (!live) return;
    onLoaded();
    remeasureGlyphs(term);
  };
  void fonts.ready.then(again);
  fonts.addEventListener('loadingdone', again);
  return () => {
    live = false;
    fonts.removeEventListener('loadingdone', again);
  };
}

/** A terminal with the fit addon loaded (not yet opened); smaller type on touch screens. */
export function createXterm(options: ITerminalOptions = {}): { term: Terminal; fit: FitAddon } {
  const term = new Terminal({
    fontFamily: FONT_STACK,
    fontSize: baseFontSize(),
    lineHeight: 1.1,
    scrollback: SCROLLBACK_LINES,
    theme: TERMINAL_THEME,
    // The agent picks its colours for a desk's terminal (Gemini draws a prompt grey on grey, 3:1);
    // a phone in daylight needs WCAG AA's 4.5:1, so xterm lightens or darkens a foreground that falls short.
    minimumContrastRatio: 4.5,
    ...options,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  return { term, fit };
}

/** A viewer renders at the PTY's size, which another device (the desk, another tab) may have set
 *  wider than this view. Up to a quarter too wide (a 120-column desk in a desktop panel) the type
 *  shrinks so every column shows; wider still (a desk's PTY on a phone) it keeps its size and the
 *  view scrolls, since fitting would make it unreadable. */
export function createWidthFit(options: { term: Terminal; host: HTMLElement }) {
  const { term, host } = options;
  const base = baseFontSize();
  /** Width of one column per px of font, from the font itself: the rendered screen lags behind a
   *  resize or a font change, the font's advance does not. Measured again once fonts load. */
  let perColumn = 0;
  let cancelSettle = () => {};
  const resettle = () => {
    cancelSettle();
    cancelSettle = settleGlyphs({ term, host });
  };
  // watchXterm makes xterm measure again when fonts load; this forgets the column width too.
  const stopFontWatch = remeasureOnFontLoad(term, () => {
    perColumn = 0;
    apply();
    resettle();
  });
  const columnWidth = () => {
    if (perColumn > 0) return perColumn;
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return 0;
    context.font = `100px ${term.options.fontFamily ?? 'monospace'}`;
    perColumn = context.measureText('W'.repeat(20)).width / 20 / 100;
    return perColumn;
  };
  const apply = () => {
    const current = term.options.fontSize ?? base;
    const unit = columnWidth();
    if (term.cols <= 0 || unit <= 0) return;
    const style = getComputedStyle(host);
    // A few px spare: xterm rounds cells to device pixels.
    const available = host.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 4;
    if (available <= 0) return;
    const fitting = Math.floor((available / (unit * term.cols)) * 10) / 10;
    const next = fitting >= base ? base : fitting >= base * MIN_FONT_SCALE ? fitting : base;
    if (next === current) return;
    term.options.fontSize = next;
    // Once xterm has taken the new size, make it measure the glyphs again at that size.
    resettle();
  };
  return {
    /** After the terminal's size or the view's width changed. */
    apply,
    dispose: () => {
      cancelSettle();
      stopFontWatch();
    },
    /** Runs `measure` at the full type size (what fits here if this viewer takes the PTY's size). */
    atBaseSize<T>(measure: () => T): T {
      if (term.options.fontSize === base) return measure();
      term.options.fontSize = base;
      try {
        return measure();
      } finally {
        apply();
        resettle();
      }
    },
  };
}

/** What both terminal views do around their xterm: copy a selection to the clipboard (a phone has no
 *  other way to copy from it), and call `onResized` once the host's size has settled. Returns the
 *  teardown. */
export function watchXterm(options: { term: Terminal; host: HTMLElement; onResized: () => void }): () => void {
  const { term, host } = options;
  const selection = term.onSelectionChange(() => {
    const text = term.getSelection();
    if (text) navigator.clipboard?.writeText(text).catch(() => {});
  });
  let timer: ReturnType<typeof setTimeout> | null = null;
  const observer = new ResizeObserver(() => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(options.onResized, RESIZE_SETTLE_MS);
  });
  observer.observe(host);
  const stopFontWatch = remeasureOnFontLoad(term, () => {});
  return () => {
    if (timer) clearTimeout(timer);
    observer.disconnect();
    selection.dispose();
    stopFontWatch();
  };
}
