// highlight.ts: the brief highlight of a tool call's row after "Show in terminal" scrolled to its
// moment. claude draws a call as `● Bash(ls -la)`, so the row is found by the call's text (its
// command or path) or else by `Tool(`; with neither on that screen, the whole screen is outlined.
// Find's line (findTextRows): the newest line of the scrollback holding the text, wrapped rows joined.
import type { IDecoration, Terminal } from '@xterm/xterm';

/** Long enough to be seen after the scroll; short enough not to linger over live output. */
const HIGHLIGHT_MS = 2_400;
/** claude cuts long commands in its one-line call header; the start of the text is what it shows. */
const HINT_CHARS = 24;

/** The row within [top, top + rows) whose text names the call, or null. */
export function findCallRow(options: { rowText: (line: number) => string; top: number; rows: number; tool: string; hint: string }): number | null {
  const { rowText, top, rows } = options;
  const hint = options.hint.split('\n')[0]!.trim().slice(0, HINT_CHARS);
  const needles = [hint ? `(${hint}` : null, hint || null, `${options.tool}(`].filter((n): n is string => n !== null);
  for (const needle of needles) {
    for (let line = top + rows - 1; line >= top; line--) if (rowText(line).includes(needle)) return line;
  }
  return null;
}

/** Highlights the call's row (or outlines the screen) at `top`; returns what removes it. `steady`:
 *  it stays (a still screen, where the row is the point) instead of fading from live output. */
export function highlightMoment(options: { term: Terminal; top: number; tool: string; hint: string; steady?: boolean }): () => void {
  const { term, top } = options;
  const buffer = term.buffer.active;
  const row = findCallRow({
    rowText: (line) => buffer.getLine(line)?.translateToString(true) ?? '',
    top,
    rows: term.rows,
    tool: options.tool,
    hint: options.hint,
  });
  return decorateRows({ term, line: row ?? top, height: row === null ? term.rows : 1, className: row === null ? 'terminal-moment-screen' : 'terminal-moment', steady: options.steady ?? false });
}

/** Rows [line, line + height) lit with `className` (faded after HIGHLIGHT_MS unless `steady`);
 *  returns what removes it. */
export function decorateRows(options: { term: Terminal; line: number; height: number; className: string; steady: boolean }): () => void {
  const { term } = options;
  const buffer = term.buffer.active;
  const marker = term.registerMarker(options.line - (buffer.baseY + buffer.cursorY));
  let decoration: IDecoration | undefined;
  try {
    decoration = term.registerDecoration({ marker, width: term.cols, height: options.height, layer: 'top' });
  } catch {
    decoration = undefined; // no highlight is better than no jump
  }
  decoration?.onRender((element) => {
    element.classList.add(options.className);
    if (options.steady) element.classList.add('terminal-moment-steady');
  });
  const timer = options.steady
    ? undefined
    : setTimeout(() => {
        decoration?.dispose();
        marker.dispose();
      }, HIGHLIGHT_MS);
  return () => {
    clearTimeout(timer);
    decoration?.dispose();
    marker.dispose();
  };
}

/** The newest line of the buffer (rows a wrap joined) holding `text`: its first row and how many
 *  rows it takes, or null. `rowText(i, trim)`: row i's text (trimmed on the right when asked). */
export function findTextRows(options: { length: number; rowText: (line: number, trim: boolean) => string; wrapped: (line: number) => boolean; text: string }): { line: number; height: number } | null {
  const needle = options.text.trim();
  if (needle === '') return null;
  let end = options.length - 1;
  while (end >= 0) {
    let start = end;
    while (start > 0 && options.wrapped(start)) start--;
    let joined = '';
    for (let i = start; i <= end; i++) joined += options.rowText(i, i === end);
    if (joined.includes(needle)) return { line: start, height: end - start + 1 };
    end = start - 1;
  }
  return null;
}
