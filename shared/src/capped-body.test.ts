// capped-body.test.ts: the reader's edges on a scripted stream (shared/ has no DOM or Bun types; every
// caller's test reads a real oversize answer from a server on 127.0.0.1): the limit is cap + slack
// exactly, the chunk past it is not kept, the stream is cancelled and never read again.
import { describe, expect, it } from 'vitest';
import { CAPPED_BODY_SLACK_BYTES, describeBytes, dropBody, readCappedBody, type ByteStream } from './capped-body.ts';

/** A stream of these chunks that counts reads and records a cancel; `failAt` makes that read throw. */
function scripted(chunks: Uint8Array[], options: { failAt?: number } = {}) {
  const seen = { reads: 0, cancelled: null as unknown };
  const body: ByteStream & { cancel(reason?: unknown): Promise<void> } = {
    getReader: () => ({
      read: async () => {
        seen.reads += 1;
        if (options.failAt === seen.reads) throw new Error('connection reset');
        const value = chunks[seen.reads - 1];
        return value ? { done: false, value } : { done: true };
      },
      cancel: async (reason) => {
        seen.cancelled = reason;
      },
    }),
    cancel: async (reason) => {
      seen.cancelled = reason;
    },
  };
  return { body, seen };
}

const filled = (length: number, value = 0x61) => new Uint8Array(length).fill(value);

describe('readCappedBody', () => {
  it('reads a body of exactly cap + slack whole, in order', async () => {
    const { body, seen } = scripted([filled(1000, 1), filled(CAPPED_BODY_SLACK_BYTES, 2), filled(24, 3)]);
    const read = await readCappedBody({ body, capBytes: 1024 });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.bytes).toHaveLength(1024 + CAPPED_BODY_SLACK_BYTES);
    expect([read.bytes[0], read.bytes[1000], read.bytes.at(-1)]).toEqual([1, 2, 3]);
    expect(seen.cancelled).toBeNull();
  });

  it('stops one byte past cap + slack: cancels the stream, reads no further, names the cap', async () => {
    const { body, seen } = scripted([filled(1024), filled(CAPPED_BODY_SLACK_BYTES), filled(1), filled(50 * 1024 * 1024)]);
    expect(await readCappedBody({ body, capBytes: 1024 })).toEqual({ ok: false, reason: 'over-cap', error: 'an answer over 1 KiB' });
    expect(seen.reads).toBe(3);
    expect(seen.cancelled).toBe('over its cap');
  });

  it('says an answer broke off when a read fails, and an absent body is empty', async () => {
    const { body } = scripted([filled(10), filled(10)], { failAt: 2 });
    expect(await readCappedBody({ body, capBytes: 1024 })).toEqual({ ok: false, reason: 'broken', error: 'an answer that broke off' });
    expect(await readCappedBody({ body: null, capBytes: 1024 })).toEqual({ ok: true, bytes: new Uint8Array(0) });
  });

  it('drops an unread body by cancelling it, and tells sizes as people read them', async () => {
    const { body, seen } = scripted([filled(10)]);
    dropBody(body);
    dropBody(null);
    expect(seen.cancelled).toBe('not read');
    expect([describeBytes(512), describeBytes(4 * 1024), describeBytes(64 * 1024), describeBytes(5 * 1024 * 1024)]).toEqual(['512 bytes', '4 KiB', '64 KiB', '5 MiB']);
  });
});
