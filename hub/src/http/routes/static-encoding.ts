// static-encoding.ts (routes): the web app's text files compressed for the wire, once per file and
// version, kept in memory. A phone on a slow link pays for every byte of the first visit (issue 43:
// 600 KB sent as is was most of its 5 s); nothing in front of the hub is promised to compress
// (Tailscale serve and the relay do not).
//
//   GET /assets/main-….js  Accept-Encoding: br, gzip ─► encodedFile(path, 'br') ─► memo (path, mtime, size) ─► bytes
//
// Invariant: only files of the build are encoded (the caller resolved the path inside webDist), and a
// changed file (a rebuild in place) is encoded afresh: its entry is stamped with its mtime and size.
import { statSync } from 'node:fs';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip';

/** Smaller files gain less than the header costs. */
const MIN_BYTES = 1024;
const TEXT_TYPES = /\.(js|css|html|svg|json|webmanifest|txt)$/;
/** Brotli 9: within 8 % of 11 at a twentieth of its time (main chunk: 36 ms against 730). */
const BROTLI_QUALITY = 9;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** One entry per file and encoding; a rebuilt file replaces its entry (the stamp differs). */
const memo = new Map<string, { stamp: string; bytes: Promise<Uint8Array<ArrayBuffer>> }>();

/** The encoding to send for this request's Accept-Encoding, or null: br where the browser offers it
 *  (Chromium does over https and on localhost), else gzip. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  const offered = new Set((acceptEncoding ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()));
  if (offered.has('br')) return 'br';
  if (offered.has('gzip')) return 'gzip';
  return null;
}

/** Whether a file of this name and size is worth encoding at all. */
export function isCompressible(path: string, size: number): boolean {
  return size >= MIN_BYTES && TEXT_TYPES.test(path);
}

/** The file's bytes in `encoding`, computed on first use and kept while the file stays the same. */
export function encodedFile(path: string, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const { mtimeMs, size } = statSync(path);
  const key = `${encoding}:${path}`;
  const stamp = `${mtimeMs}:${size}`;
  const known = memo.get(key);
  if (known?.stamp === stamp) return known.bytes;
  const bytes = Bun.file(path)
    .bytes()
    .then((raw) => (encoding === 'br' ? brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : gzipAsync(raw, { level: 9 })))
    .then((buffer) => new Uint8Array(buffer));
  // A failed read is not remembered: the next request tries again.
  bytes.catch(() => memo.delete(key));
  memo.set(key, { stamp, bytes });
  return bytes;
}
