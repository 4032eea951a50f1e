// bytes.ts: joining PTY output chunks (the screen model's held plain text, the terminal stream's
// pending batch), so both take the same one copy.

/** One array holding `chunks` in order (`total` is the sum of their lengths). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
