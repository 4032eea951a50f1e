// visible-text.ts: whether a PTY read draws something a person could read, or only moves the cursor.
// An idle claude redraws now and then with nothing but cursor moves and line erases (two 31-byte
// bursts a few seconds after a turn, measured by the idle bench); taken as a sign of life, each woke
// the backstop polls and the read loop's back-off ramp for QUIET_AFTER_MS (~40 wake-ups, about a
// seventh of an idle runner's CPU beside claude). What those polls catch comes while claude works,
// and a working claude writes text (its spinner's words, the reply), so only text stirs the pace.
// Escape sequences split across two reads make their tail look like text: that stirs, the safe way.

const ESC = 0x1b;
const BEL = 0x07;

/** True when `bytes` hold a character outside escape sequences that is neither a control nor a
 *  space: printable ASCII or any UTF-8 byte (box drawing, the prompt mark). */
export function drawsText(bytes: Uint8Array): boolean {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === ESC) {
      i = skipEscape(bytes, i + 1);
      continue;
    }
    if (b > 0x20 && b !== 0x7f) return true;
    i++;
  }
  return false;
}

/** Index just past the escape sequence whose introducer (the byte after ESC) is at `i`. */
function skipEscape(bytes: Uint8Array, i: number): number {
  const intro = bytes[i];
  if (intro === undefined) return i;
  if (intro === 0x5b) {
    // CSI: parameters and intermediates (0x20–0x3f), then one final byte (0x40–0x7e).
    let j = i + 1;
    while (j < bytes.length && (bytes[j]! < 0x40 || bytes[j]! > 0x7e)) j++;
    return j + 1;
  }
  if (intro === 0x5d || intro === 0x50 || intro === 0x58 || intro === 0x5e || intro === 0x5f) {
    // OSC, DCS, SOS, PM, APC: a string up to BEL or ST (ESC \).
    let j = i + 1;
    while (j < bytes.length && bytes[j] !== BEL && !(bytes[j] === ESC && bytes[j + 1] === 0x5c)) j++;
    return bytes[j] === BEL ? j + 1 : j + 2;
  }
  // Two-byte sequences (ESC 7, ESC =), and charset designations with intermediates (ESC ( B).
  let j = i;
  while (j < bytes.length && bytes[j]! >= 0x20 && bytes[j]! <= 0x2f) j++;
  return j + 1;
}
