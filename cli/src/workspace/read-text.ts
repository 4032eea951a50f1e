// read-text.ts: the first bytes of one regular file as text, or "binary". Opened without following
// a final symbolic link (O_NOFOLLOW) and checked to be a regular file on the opened descriptor, so
// a link swapped in after the containment check is not followed.
// Binary as git judges it: a NUL byte in the first 8000 bytes; also anything that is not UTF-8.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** git's own window for the NUL test (xdiff's `buffer_is_binary`). */
const BINARY_SNIFF_BYTES = 8000;

export type TextRead = { kind: 'text'; text: string; size: number; cut: boolean } | { kind: 'binary'; size: number } | { kind: 'not-file' };

export function readTextCapped(options: { path: string; maxBytes: number }): TextRead {
  const fd = openSync(options.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
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
  } finally {
    closeSync(fd);
  }
}
