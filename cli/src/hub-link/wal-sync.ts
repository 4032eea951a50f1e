// wal-sync.ts: makes an outbox's writes survive a power cut without an fsync on the event loop.
// The outbox commits with synchronous=NORMAL (WAL): a commit is in the WAL file, in the kernel's page
// cache, when push returns, so the runner's crash or kill loses nothing; this then fdatasyncs the WAL
// on Bun's file-system threads, so a power cut loses at most the writes of the last few ms. With
// synchronous=FULL each commit was an fsync on the runner's one thread: 2–10 ms on a busy disk, in the
// middle of an approval's round trip (a status write as the hub's answer arrived; bench/approvals).
//
// Invariant: one fdatasync in flight; writes made meanwhile get one more after it, never none.
import { open } from 'node:fs/promises';

export type WalSync = {
  /** A commit was made: have the WAL on disk soon. */
  wrote(): void;
  /** Resolves once every write made before the call is on disk (or its sync failed). */
  settled(): Promise<void>;
};

/** fdatasync of the file at `path`, on Bun's file-system threads. */
async function datasync(path: string): Promise<void> {
  try {
    const file = await open(path, 'r');
    try {
      await file.datasync();
    } finally {
      await file.close();
    }
  } catch {
    // The WAL is gone (the outbox was closed: SQLite checkpointed and removed it) or the disk
    // refused: the commit stays in the page cache as with any unsynced write; nothing to retry.
  }
}

export function walSync(o: { walPath: string; sync?: (path: string) => Promise<void> }): WalSync {
  const sync = o.sync ?? datasync;
  let inFlight: Promise<void> | null = null;
  let again = false;

  const syncOnce = () => sync(o.walPath);

  const run = (): Promise<void> => {
    inFlight = syncOnce().then(() => {
      if (again) {
        again = false;
        return run();
      }
      inFlight = null;
    });
    return inFlight;
  };

  return {
    wrote() {
      if (inFlight) again = true;
      else void run();
    },
    settled: () => inFlight ?? Promise.resolve(),
  };
}
