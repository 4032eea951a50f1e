// read-text.ts: the first bytes of one regular file as text, or "binary", read from a descriptor
// open-inside.ts opened (so no link swapped in after the containment check is followed).
// Binary as git judges it: a NUL byte in the first 8000 bytes; also anything that is not UTF-8.
import { fstatSync, readSync } from 'node:fs';

/** git's own window for the NUL test (xdiff's `buffer_is_binary`). */
const BINARY_SNIFF_BYTES = 8000;

export type TextRead = { kind: 'text'; text: string; size: number; cut: boolean } | { kind: 'binary'; size: number } | { kind: 'not-file' };

/** Reads the open descriptor `fd` (the caller closes it). */
export function readTextCapped(options: { fd: number; maxBytes: number }): TextRead {
  const fd = options.fd;
  const stat = fstatSync(fd);
  if (!stat.isFile()) return { kind: 'not-file' };
  const want = Math.min(stat.size, options.maxBytes);
  const buffer = Buffer.alloc(want);
  let got = 0;
  while (got < want) {
    const n = readSync(fd, buffer, got, want - got, got);
    if (n === 0) break;
    got += n;
  }
  let bytes = buffer.subarray(0, got);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'binary', size: stat.size };
  const cut = stat.size > got;
  // Cut at the last whole line (a cut may split a UTF-8 character).
  if (cut) {
    const lastNewline = bytes.lastIndexOf(0x0a);
    if (lastNewline >= 0) bytes = bytes.subarray(0, lastNewline + 1);
    else while (bytes.length > 0 && (bytes[bytes.length - 1]! & 0xc0) === 0x80) bytes = bytes.subarray(0, bytes.length - 1);
    if (lastNewline < 0 && bytes.length > 0 && bytes[bytes.length - 1]! >= 0xc0) bytes = bytes.subarray(0, bytes.length - 1);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { kind: 'binary', size: stat.size };
  }
  return { kind: 'text', text, size: stat.size, cut };
}
