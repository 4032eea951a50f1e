// read-text.ts: the first bytes of one regular file as text, or "binary", read from a descriptor
// open-inside.ts opened (so no link swapped in after the containment check is followed).
// Binary as git judges it: a NUL byte in the first 8000 bytes; also anything that is not UTF-8.
import { createHash } from 'node:crypto';
import { fstatSync, readSync } from 'node:fs';

/** git's own window for the NUL test (xdiff's `buffer_is_binary`). */
const BINARY_SNIFF_BYTES = 8000;

/** `hash`: sha256 (hex) of the bytes when the whole file was read (the base of an edit), else null. */
export type TextRead = { kind: 'text'; text: string; size: number; cut: boolean; hash: string | null } | { kind: 'binary'; size: number } | { kind: 'not-file' };

/** Reads the open descriptor `fd` (the caller closes it). */
export function readTextCapped(options: { fd: number; maxBytes: number }): TextRead {
  const fd = options.fd;
  const stat = fstatSync(fd);
  if (!stat.isFile()) return { kind: 'not-file' };
  let bytes = readBytes({ fd, maxBytes: options.maxBytes, size: stat.size });
  if (isBinary(bytes)) return { kind: 'binary', size: stat.size };
  const cut = stat.size > bytes.length;
  const hash = cut ? null : contentHash(bytes);
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
  return { kind: 'text', text, size: stat.size, cut, hash };
}

/** Up to `maxBytes` from the start of the open descriptor (fewer if it is shorter than `size`). */
export function readBytes(options: { fd: number; maxBytes: number; size: number }): Buffer {
  const want = Math.min(options.size, options.maxBytes);
  const buffer = Buffer.alloc(want);
  let got = 0;
  while (got < want) {
    const n = readSync(options.fd, buffer, got, want - got, got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/** Binary as git judges it (a NUL in the first 8000 bytes); not-UTF-8 is found by decoding. */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export function contentHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
