// tail.ts: follows one JSONL transcript by byte offset and hands over complete lines.
// In: a path (the file may not exist yet: claude creates it lazily at the first prompt). Out: batches of
// lines plus the byte offset just past the last of them (what a runner persists to resume later).
// Invariants:
//   - every complete line is delivered exactly once, in file order, and never a partial line: bytes after
//     the last "\n" are held back until their newline arrives. Lines are split on the 0x0A byte, which never
//     occurs inside a UTF-8 multi-byte sequence, so a character split across writes is decoded whole.
//   - the file shrinking below what was read, or a different inode at the path, means it was replaced:
//     reading restarts at 0 of the new file.
//   - at most one read runs at a time; `switchTo` and `stop` invalidate a read in flight (generation check).
import fs from 'node:fs';
import { basename, dirname } from 'node:path';
import { steadyPoll, type Poll } from '../pace/pace.ts';

/** fs.watch misses events (directory not created yet, overlay/network filesystems, editors replacing
 *  files, coalesced inotify events), so a stat poll backs it up. The runner also reads at once when
 *  claude's hooks say it wrote (poke(): UserPromptSubmit, PreToolUse, PostToolUse, Stop), so the
 *  poll is the last resort, for lines no hook announces (subagents, text mid-turn) when fs.watch
 *  missed them (it does here: ~1 % of appends, measured by the chat-lag bench). */
export const TRANSCRIPT_POLL_MS = 250;
/** Largest single read: a resumed multi-hundred-MB transcript is delivered in 1 MiB slices instead of
 *  being held in memory whole (and the consumer sees progress early). */
const READ_CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export interface TailTranscriptOptions {
  path: string;
  /** Byte offset to start at (a previously returned `endOffset`). Default 0. */
  fromOffset?: number;
  /** Complete lines (no "\n", no trailing "\r", empty lines skipped) and the offset just past them. */
  onLines: (lines: string[], endOffset: number) => void;
  /** I/O errors other than "file not there yet", and exceptions thrown by onLines. */
  onError?: (err: unknown) => void;
  pollMs?: number;
  /** How the backstop poll is timed (the runner's pace slows it while the session is quiet). */
  poll?: Poll;
}

export interface TranscriptTail {
  /** Releases the watcher and the timer; nothing is delivered afterwards. */
  stop(): void;
  /** Offset just past the last delivered line of the current file. */
  offset(): number;
  /** Follow another file from now on (`/clear` starts a new session file). */
  switchTo(path: string, fromOffset?: number): void;
  /** Read now: claude just said (through a hook) that it wrote something. Resolves after the read. */
  poke(): Promise<void>;
}

export function tailTranscript(options: TailTranscriptOptions): TranscriptTail {
  const { onLines, onError = () => {} } = options;
  let path = options.path;
  let offset = Math.max(0, options.fromOffset ?? 0);
  let pending: Buffer = Buffer.alloc(0); // bytes after `offset` that have no newline yet
  let ino: number | null = null; // identity of the file `offset` refers to
  let generation = 0;
  let stopped = false;
  let running = false;
  let again = false;
  // Watch the directory, not the file: the file may not exist yet, and a replaced file has a new inode.
  const dirWatch = createDirWatch({
    onChange: (filename) => {
      if (filename === null || filename === basename(path)) void tick();
    },
  });

  const restartFromZero = () => {
    offset = 0;
    pending = Buffer.alloc(0);
  };

  const deliver = (complete: Buffer) => {
    const lines = splitLines(complete);
    offset += complete.length;
    if (lines.length === 0) return;
    try {
      onLines(lines, offset);
    } catch (err) {
      onError(err);
    }
  };

  const step = async (): Promise<void> => {
    const gen = generation;
    const current = path;
    let st: fs.Stats;
    try {
      // Synchronous on purpose: a stat of a local file takes microseconds, while the async one
      // hands off to Bun's thread pool (a thread woken, often one spawned, an eventfd write) at
      // every poll of an idle session.
      st = fs.statSync(current);
    } catch (err) {
      if (!isNotFound(err)) onError(err);
      return; // not created yet (or moved away): the poll looks again
    }
    if (gen !== generation || stopped) return;
    if (ino === st.ino && st.size === offset + pending.length) return; // nothing new

    const handle = await fs.promises.open(current, 'r').catch((err: unknown) => {
      if (!isNotFound(err)) onError(err);
      return null;
    });
    if (!handle) return;
    try {
      const fst = await handle.stat(); // stat of what we actually opened, not of whatever the path is now
      if (gen !== generation || stopped) return;
      if (ino !== null && fst.ino !== ino) restartFromZero(); // replaced by a new file
      ino = fst.ino;
      let readPos = offset + pending.length;
      if (fst.size < readPos) {
        restartFromZero(); // truncated (or rewritten shorter): the old offset means nothing now
        readPos = 0;
      }
      while (readPos < fst.size) {
        const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, fst.size - readPos));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, readPos);
        if (gen !== generation || stopped) return;
        if (bytesRead === 0) break;
        readPos += bytesRead;
        const bytes = pending.length ? Buffer.concat([pending, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
        const lastNewline = bytes.lastIndexOf(NEWLINE);
        if (lastNewline === -1) {
          pending = Buffer.from(bytes); // copy: do not pin a 1 MiB chunk for a few bytes
          continue;
        }
        pending = Buffer.from(bytes.subarray(lastNewline + 1));
        deliver(bytes.subarray(0, lastNewline + 1));
      }
    } finally {
      await handle.close().catch(() => {});
    }
  };

  /** The read in progress; a tick while it runs asks it to go once more and waits for that. */
  let current: Promise<void> | null = null;
  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true; // a change arrived mid-read: run once more after this read
      return current ?? Promise.resolve();
    }
    running = true;
    current = (async () => {
      try {
        do {
          again = false;
          dirWatch.watch(dirname(path));
          await step().catch(onError);
        } while (again && !stopped);
      } finally {
        running = false;
        current = null;
      }
    })();
    return current;
  };

  const stopPoll = (options.poll ?? steadyPoll)({ everyMs: options.pollMs ?? TRANSCRIPT_POLL_MS, tick: () => void tick() });
  void tick();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      generation++;
      stopPoll();
      dirWatch.close();
    },
    offset: () => offset,
    poke: () => tick(),
    switchTo(nextPath: string, fromOffset = 0) {
      if (stopped) return;
      generation++; // a read in flight for the old file delivers nothing
      path = nextPath;
      offset = Math.max(0, fromOffset);
      pending = Buffer.alloc(0);
      ino = null;
      if (running) again = true;
      else void tick();
    },
  };
}

/** Complete lines (CRLF or LF), empty ones left out. */
function splitLines(complete: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < complete.length) {
    let end = complete.indexOf(NEWLINE, start);
    if (end === -1) end = complete.length;
    const stop = end > start && complete[end - 1] === 0x0d ? end - 1 : end;
    if (stop > start) lines.push(complete.toString('utf8', start, stop));
    start = end + 1;
  }
  return lines;
}

/** One fs.watch on a directory, moved when the directory changes; a failed or lost watch is left to
 *  the poll, which calls watch() again on its next tick. */
function createDirWatch(options: { onChange: (filename: string | null) => void }) {
  let watcher: fs.FSWatcher | null = null;
  let watchedDir: string | null = null;
  const close = () => {
    const w = watcher;
    watcher = null;
    watchedDir = null;
    try {
      w?.close();
    } catch {
      // already closed
    }
  };
  return {
    watch(dir: string) {
      if (watcher && watchedDir === dir) return;
      close();
      try {
        watcher = fs.watch(dir, { persistent: true }, (_event, filename) => options.onChange(filename ? filename.toString() : null));
        watchedDir = dir;
        watcher.on('error', () => close()); // e.g. directory removed; the poll re-creates the watch
      } catch {
        // directory not there yet: the poll retries on its next tick
      }
    },
    close,
  };
}

function isNotFound(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
