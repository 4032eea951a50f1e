// byte-log.ts: the last `maxBytes` of one terminal's output, addressed by absolute offset.
// Invariant: start <= end; since(x) returns exactly bytes [x, end), or "gone" when x < start.
// Viewers that get "gone" are resynced from a snapshot; the PTY is never paused for them.

/** Most memory one terminal's log may take on the hub (the hub-wide budget may allow less:
 *  log-budget.ts). 4 MiB holds many full redraws of a large screen (a 250x80 screen with colours is
 *  ~100 KiB), so a brief drop replays bytes, not a snapshot. */
export const DEFAULT_TERMINAL_LOG_BYTES = 4 * 1024 * 1024;

export type ByteLog = {
  readonly start: number;
  readonly end: number;
  /** Appends a chunk whose first byte is at `offset`. A chunk that overlaps bytes already held is
   *  trimmed; a gap (offset > end) restarts the log at `offset` (the earlier bytes are unknowable). */
  append(offset: number, data: Uint8Array): void;
  /** Bytes [offset, end) as one copy (tests, and callers that need them in one piece). */
  since(offset: number): Uint8Array | 'gone';
  /** The bytes from `offset` to the end of the stored chunk holding it, without a copy (a view
   *  callers must not write to). Runs of small chunks (keystroke echoes) come merged into one copy
   *  of up to MERGE_BYTES, so catching up never means one send per byte. Empty at the end. */
  piece(offset: number): Uint8Array | 'gone';
  /** since(offset) would not be "gone" (no copy made). */
  has(offset: number): boolean;
  /** Forget everything and start at `offset` (after a snapshot the hub did not see bytes for). */
  reset(offset: number): void;
  /** A new cap. A lower one drops the oldest bytes at once (so the hub-wide budget holds also for
   *  terminals that print nothing more); offsets still held read exactly as before. */
  setMaxBytes(maxBytes: number): void;
  readonly maxBytes: number;
  readonly heldBytes: number;
};

/** A stored chunk shorter than this is merged with its small neighbours when read by piece(). */
const SMALL_PIECE_BYTES = 16 * 1024;
const MERGE_BYTES = 64 * 1024;
/** Appends smaller than this are copied into a shared block of BLOCK_BYTES instead of a typed array
 *  of their own: a PTY streams ~100-byte chunks, and each own array cost ~220 bytes of object and
 *  allocation overhead, i.e. a full 4 MiB log of them ~13 MiB (issue 13, docs/decisions/hub.md). */
const SMALL_APPEND_BYTES = 4 * 1024;
const BLOCK_BYTES = 16 * 1024;

export function createByteLog(options: { maxBytes?: number; start?: number } = {}): ByteLog {
  const checked = (n: number) => {
    if (!(n > 0) || !Number.isFinite(n)) throw new Error(`maxBytes must be a positive number, got ${n}`);
    return n;
  };
  let maxBytes = checked(options.maxBytes ?? DEFAULT_TERMINAL_LOG_BYTES);
  let chunks: Uint8Array[] = [];
  let start = options.start ?? 0;
  let held = 0;
  /** The block small appends are copied into; the last chunk is its view [tailFrom, tailUsed).
   *  Bytes once written to it never change, so views handed out earlier stay valid. */
  let tail: Uint8Array | null = null;
  let tailFrom = 0;
  let tailUsed = 0;

  function trim(): void {
    while (held > maxBytes) {
      const first = chunks[0]!;
      const excess = held - maxBytes;
      const isTail = tail !== null && chunks.length === 1;
      if (first.length <= excess) {
        chunks.shift();
        held -= first.length;
        start += first.length;
        if (isTail) tail = null;
      } else {
        let rest = first.subarray(excess);
        // A view keeps its whole backing store alive: a 1 MiB chunk cut down to a 128 KiB cap would
        // still cost 1 MiB. Copy a big chunk's rest once it is under half of its store (blocks are
        // small and shared, left as they are); halving each time keeps the copying linear.
        if (!isTail && rest.buffer.byteLength > BLOCK_BYTES && rest.length * 2 < rest.buffer.byteLength) rest = rest.slice();
        chunks[0] = rest;
        held -= excess;
        start += excess;
        if (isTail) tailFrom += excess;
      }
    }
  }

  return {
    get start() {
      return start;
    },
    get end() {
      return start + held;
    },
    get heldBytes() {
      return held;
    },
    get maxBytes() {
      return maxBytes;
    },
    setMaxBytes(n) {
      maxBytes = checked(n);
      trim();
    },
    append(offset, data) {
      const end = start + held;
      if (offset > end) this.reset(offset);
      const skip = Math.max(0, start + held - offset);
      if (skip >= data.length) return;
      // Always a copy: callers may reuse their buffer, and a view would pin its backing store
      // (socket.io hands over Buffers, whose own slice() is a view, hence set() and the
      // Uint8Array slice below).
      const rest = skip > 0 ? data.subarray(skip) : data;
      if (rest.length < SMALL_APPEND_BYTES) {
        if (tail === null || tailUsed + rest.length > tail.length) {
          tail = new Uint8Array(BLOCK_BYTES);
          tailFrom = 0;
          tailUsed = 0;
          chunks.push(tail.subarray(0, 0));
        }
        tail.set(rest, tailUsed);
        tailUsed += rest.length;
        chunks[chunks.length - 1] = tail.subarray(tailFrom, tailUsed);
      } else {
        tail = null;
        chunks.push(Uint8Array.prototype.slice.call(rest));
      }
      held += rest.length;
      trim();
    },
    since(offset) {
      if (offset < start) return 'gone';
      const end = start + held;
      if (offset >= end) return new Uint8Array(0);
      return copySince({ chunks, start, end }, offset);
    },
    piece(offset) {
      if (offset < start) return 'gone';
      const end = start + held;
      if (offset >= end) return new Uint8Array(0);
      return pieceAt({ chunks, end }, offset);
    },
    has(offset) {
      return offset >= start;
    },
    reset(offset) {
      chunks = [];
      held = 0;
      start = offset;
      tail = null;
    },
  };
}

/** The chunks of a log, in order, holding bytes [start, end). */
type Held = { chunks: Uint8Array[]; start: number; end: number };

/** Bytes [offset, end) as one copy; offset is within [start, end). */
function copySince({ chunks, start, end }: Held, offset: number): Uint8Array {
  const out = new Uint8Array(end - offset);
  let pos = start;
  let written = 0;
  for (const chunk of chunks) {
    const chunkEnd = pos + chunk.length;
    if (chunkEnd > offset) {
      const from = Math.max(0, offset - pos);
      out.set(chunk.subarray(from), written);
      written += chunk.length - from;
    }
    pos = chunkEnd;
  }
  return out;
}

/** The bytes from `offset` (within the held ones) to the end of its chunk, as a view; a run of small
 *  chunks merged into one copy of up to MERGE_BYTES. */
function pieceAt({ chunks, end }: Omit<Held, 'start'>, offset: number): Uint8Array {
  // Viewers catching up are usually near the end: search from there.
  let i = chunks.length - 1;
  let pos = end - chunks[i]!.length;
  while (pos > offset) {
    i--;
    pos -= chunks[i]!.length;
  }
  const first = chunks[i]!.subarray(offset - pos);
  if (first.length >= SMALL_PIECE_BYTES || i === chunks.length - 1 || chunks[i + 1]!.length >= SMALL_PIECE_BYTES) return first;
  let total = first.length;
  let last = i;
  while (last + 1 < chunks.length && chunks[last + 1]!.length < SMALL_PIECE_BYTES && total < MERGE_BYTES) total += chunks[++last]!.length;
  const out = new Uint8Array(total);
  out.set(first, 0);
  let written = first.length;
  for (let j = i + 1; j <= last; j++) {
    out.set(chunks[j]!, written);
    written += chunks[j]!.length;
  }
  return out;
}
