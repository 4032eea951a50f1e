// escapes.ts: a terminal's replay (a screen snapshot, then PTY bytes) as plain lines to search.
// Not a terminal emulator: what a person would read is approximated by dropping every escape
// sequence and control character, and by starting a new line wherever the bytes move the cursor to
// another row (a full-screen agent draws with cursor moves, not newlines). A line drawn twice is
// found twice; the caller keeps distinct lines.
//
// Dropped whole: CSI (ESC [ … final, and the C1 form U+009B), OSC (ESC ] … BEL or ST), DCS, SOS,
// PM and APC strings (ESC P / X / ^ / _ … ST), and two- and three-character escapes (ESC 7,
// ESC ( B …). A string left open at the end is dropped to the end (it never closed).

const ESC = 0x1b;
const BEL = 0x07;
/** CSI finals that put the cursor on another row: a new line here. */
const ROW_MOVES = new Set(['A', 'B', 'E', 'F', 'H', 'd', 'f']);
/** CSI finals that move the cursor right: a space here, so words drawn apart stay apart. */
const COLUMN_MOVES = new Set(['C', 'G', '`']);

/** The plain text of `input`, with `\n` between lines (`\r` and row moves become line breaks). */
export function stripEscapes(input: string): string {
  let out = '';
  let i = 0;
  const n = input.length;
  while (i < n) {
    const code = input.charCodeAt(i);
    if (code === ESC || code === 0x9b || code === 0x9d || code === 0x90) {
      const { next, emit } = skipSequence(input, i);
      out += emit;
      i = next;
      continue;
    }
    if (code === 0x0a || code === 0x0d) out += '\n';
    else if (code === 0x09) out += ' ';
    else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)) out += input[i];
    i++;
  }
  return out;
}

/** The sequence starting at `at`: where the text resumes, and what stands in its place. */
function skipSequence(input: string, at: number): { next: number; emit: string } {
  const code = input.charCodeAt(at);
  if (code === 0x9b) return skipCsi(input, at + 1);
  if (code === 0x9d || code === 0x90) return { next: skipString(input, at + 1), emit: '' };
  const kind = input[at + 1];
  if (kind === undefined) return { next: at + 1, emit: '' };
  if (kind === '[') return skipCsi(input, at + 2);
  if (kind === ']' || kind === 'P' || kind === 'X' || kind === '^' || kind === '_') return { next: skipString(input, at + 2), emit: '' };
  // ESC, intermediates (0x20–0x2f), then one final character: ESC 7, ESC ( B, ESC # 8…
  let i = at + 1;
  while (i < input.length && input.charCodeAt(i) >= 0x20 && input.charCodeAt(i) <= 0x2f) i++;
  return { next: Math.min(i + 1, input.length), emit: '' };
}

/** Parameters and intermediates up to the final byte (0x40–0x7e). */
function skipCsi(input: string, from: number): { next: number; emit: string } {
  let i = from;
  while (i < input.length) {
    const c = input.charCodeAt(i);
    if (c >= 0x40 && c <= 0x7e) {
      const final = input[i]!;
      return { next: i + 1, emit: ROW_MOVES.has(final) ? '\n' : COLUMN_MOVES.has(final) ? ' ' : '' };
    }
    if (c < 0x20 || c > 0x3f) return { next: i, emit: '' }; // malformed: resume at the odd character
    i++;
  }
  return { next: i, emit: '' };
}

/** An OSC/DCS/… string: up to BEL, ESC \ or the C1 ST (U+009C). */
function skipString(input: string, from: number): number {
  for (let i = from; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === BEL || c === 0x9c) return i + 1;
    if (c === ESC && input[i + 1] === '\\') return i + 2;
  }
  return input.length;
}
