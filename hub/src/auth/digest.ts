// digest.ts: how the hub keeps a secret it must recognise later (an access token, a pairing code, a
// refresh secret, a machine's secret): its SHA-256, compared in constant time so how long a wrong
// guess takes says nothing about how close it came.
import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether two hex digests are the same; a missing one (null) never is. */
export function sameDigest(a: string | null, b: string | null): boolean {
  if (a === null || b === null || a.length !== b.length) return false;
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The credential of an `Authorization: Bearer …` header, or null. */
export function bearerOf(header: string | undefined): string | null {
  return /^Bearer\s+(\S{1,4096})$/i.exec(header ?? '')?.[1] ?? null;
}
