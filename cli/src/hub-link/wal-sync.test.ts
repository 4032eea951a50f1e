// The outbox's WAL is synced off the event loop: one sync per quiet write, writes made while one
// runs get exactly one more after it, and an outbox that synced still reads back what it pushed.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../testing/temp-dirs.ts';
import { openOutbox } from './outbox.ts';
import { walSync } from './wal-sync.ts';

const tempDir = tempDirs('wal-sync');

/** A sync that finishes only when the test says so, counting its calls. */
function heldSync() {
  const calls: Array<() => void> = [];
  return {
    calls,
    sync: (_path: string) => new Promise<void>((resolve) => calls.push(resolve)),
  };
}

describe('walSync', () => {
  it('syncs once per write when writes are apart', async () => {
    const held = heldSync();
    const wal = walSync({ walPath: '/x-wal', sync: held.sync });
    wal.wrote();
    expect(held.calls).toHaveLength(1);
    held.calls[0]!();
    await wal.settled();
    wal.wrote();
    expect(held.calls).toHaveLength(2);
    held.calls[1]!();
    await wal.settled();
  });

  it('gives the writes made during a sync one more sync after it, and settles after that one', async () => {
    const held = heldSync();
    const wal = walSync({ walPath: '/x-wal', sync: held.sync });
    wal.wrote();
    wal.wrote();
    wal.wrote();
    expect(held.calls).toHaveLength(1);
    let settled = false;
    void wal.settled().then(() => (settled = true));
    held.calls[0]!();
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.calls).toHaveLength(2);
    expect(settled).toBe(false);
    held.calls[1]!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
    expect(held.calls).toHaveLength(2);
  });

  it('syncs a real WAL, and takes a vanished one quietly', async () => {
    const dir = tempDir();
    const outbox = openOutbox({ dir, sessionId: 'wal-sync' });
    outbox.push('prompt:status', { sessionId: 'wal-sync', promptId: 'p1', status: 'delivered' });
    outbox.setMeta('registration', '{}');
    expect(outbox.peek(10)).toEqual([{ seq: 1, event: 'prompt:status', payload: { sessionId: 'wal-sync', promptId: 'p1', status: 'delivered' } }]);
    outbox.close();
    const gone = walSync({ walPath: join(dir, 'no-such-wal') });
    gone.wrote();
    await expect(gone.settled()).resolves.toBeUndefined();
  });
});
