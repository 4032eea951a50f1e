// plain-run.ts: lets the screen model skip most of a flood of plain text (`cat big.log`, `yes`)
// instead of parsing every byte, with the same screen, history and cursor as parsing it all.
//
//   PTY bytes ──split──► other bytes ──────────────────────────────► xterm (parsed as they are)
//                   └──► plain run (printable ASCII, TAB, CR, LF) ──► held; the front is dropped once
//                        the held tail alone has enough CR LF lines to push it out of the buffer
//
// Why it is exact: plain bytes change nothing but cells and the cursor. From any cursor position on
// a screen whose scroll region is the whole screen, `rows` CR LF pairs leave the cursor at column 0
// on a fresh blank line at the bottom (blank with the current background, which plain text cannot
// change); from there both ways of writing the rest are the same operations on the same lines, and
// `rows + scrollback` more lines push out every line that differed. So a tail holding at least
// KEEP_LINES(rows) CR LF pairs may be parsed alone. A run may only be shortened if, where it starts,
// xterm's parser is in its ground state (not inside an escape sequence or string, whose terminator
// may be plain bytes) and the scroll region is the whole screen (otherwise lines outside the region
// keep overwritten text); that is asked of the parser when it has parsed up to the run's start.
// Invariant: the bytes handed on, in order, are the input with only such fronts removed.
import { concatBytes } from '../pty/bytes.ts';

/** History lines the screen keeps above the visible rows (xterm's scrollback in screen-parser.ts). */
export const SCROLLBACK_LINES = 1000;
/** CR LF pairs a held tail needs before everything before it may be dropped (see above, +2 spare). */
export const keepLines = (rows: number) => 2 * rows + SCROLLBACK_LINES + 2;
/** Held bytes are only shortened past this much, so the backward count runs once per ~this much. */
const TRIM_AT_BYTES = 256 * 1024;
/** A run that cannot be shortened (unknown start state, lines too long) is parsed past this much. */
const MAX_HELD_BYTES = 4 * 1024 * 1024;

const ESC = 0x1b;
const CR = 0x0d;
const LF = 0x0a;

/** Printable ASCII, TAB, CR and LF: bytes that only draw or move the cursor. */
function isPlain(b: number): boolean {
  return b >= 0x20 ? b <= 0x7e : b === LF || b === CR || b === 0x09;
}

export type PlainRunSink = {
  /** Bytes to parse, in order; `skipped` bytes before them were dropped and count as parsed. */
  parse(bytes: Uint8Array, skipped: number): void;
  /** Calls back once the parser has parsed everything handed to it so far: can a run start here? */
  askAtParsed(answer: (canShorten: boolean) => void): void;
};

export function createPlainRuns(options: { sink: PlainRunSink; rows: () => number }) {
  const { sink } = options;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  /** Bytes dropped from the front of the current run, not yet reported to the sink. */
  let skipped = 0;
  /** The current run: null none; otherwise whether it may be shortened (null: not answered yet). */
  let run: { canShorten: boolean | null } | null = null;

  const release = () => {
    if (heldBytes === 0 && skipped === 0) return;
    const bytes = held.length === 1 ? held[0]! : concatBytes(held, heldBytes);
    const dropped = skipped;
    held = [];
    heldBytes = 0;
    skipped = 0;
    sink.parse(bytes, dropped);
  };

  const startRun = () => {
    const current: { canShorten: boolean | null } = { canShorten: null };
    run = current;
    sink.askAtParsed((canShorten) => {
      current.canShorten = canShorten;
      if (run !== current) return;
      if (canShorten) shorten();
      else {
        // Not here (say, inside a sequence whose final byte is plain): the next plain bytes start a
        // run of their own and ask again, since the sequence may have ended in these.
        release();
        run = null;
      }
    });
  };

  /** Drops the front of the held bytes so that exactly keepLines CR LF pairs stay (if there are more). */
  const shorten = () => {
    if (heldBytes < TRIM_AT_BYTES) return;
    let need = keepLines(options.rows());
    // Walk back from the end; the cut goes right before the CR of the need-th CR LF from the end.
    for (let p = held.length - 1; p >= 0; p--) {
      const piece = held[p]!;
      for (let i = piece.length - 1; i >= 1; i--) {
        if (piece[i] === LF && piece[i - 1] === CR && --need === 0) {
          const cut = i - 1;
          const before = held.slice(0, p).reduce((n, x) => n + x.length, 0) + cut;
          skipped += before;
          held = [piece.subarray(cut), ...held.slice(p + 1)];
          heldBytes -= before;
          return;
        }
      }
    }
  };

  const appendPlain = (bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    if (!run) startRun();
    held.push(bytes);
    heldBytes += bytes.length;
    if (run!.canShorten) shorten();
    if (heldBytes > MAX_HELD_BYTES) release();
  };

  return {
    /** PTY bytes, in order (the array is not modified). */
    write(bytes: Uint8Array) {
      let first = 0;
      while (first < bytes.length && isPlain(bytes[first]!)) first++;
      if (first === bytes.length) return appendPlain(bytes);
      let last = bytes.length - 1;
      while (isPlain(bytes[last]!)) last--;
      // A complete escape sequence's plain final bytes (`m` of ESC [ 0 m) belong with it, so that
      // the plain tail starts where the parser is back in its ground state.
      if (bytes[last] === ESC) last = sequenceEnd(bytes, last);
      appendPlain(bytes.subarray(0, first));
      release();
      run = null;
      sink.parse(bytes.subarray(first, last + 1), 0);
      appendPlain(bytes.subarray(last + 1));
    },
    /** Hands every held byte to the parser (before a read). The run goes on. */
    flush: release,
    /** Hands every held byte to the parser and ends the run (before a resize: keepLines changes, and
     *  the next run asks about the screen again). */
    end() {
      release();
      run = null;
    },
    /** Held bytes that will still be parsed (dropped ones are not counted). */
    heldBytes: () => heldBytes,
  };
}

/** The index of the last byte of the ESC sequence at `esc` if it is complete within `bytes` and
 *  of the simple kinds (ESC [ params intermediates final, or ESC intermediates final), else `esc`. */
function sequenceEnd(bytes: Uint8Array, esc: number): number {
  let i = esc + 1;
  if (bytes[i] === 0x5b /* [ */) {
    i++;
    while (i < bytes.length && bytes[i]! >= 0x30 && bytes[i]! <= 0x3f) i++;
    while (i < bytes.length && bytes[i]! >= 0x20 && bytes[i]! <= 0x2f) i++;
    return i < bytes.length && bytes[i]! >= 0x40 && bytes[i]! <= 0x7e ? i : esc;
  }
  if (bytes[i] === 0x5d /* ] */ || bytes[i] === 0x50 /* P */ || bytes[i] === 0x5f /* _ */ || bytes[i] === 0x5e /* ^ */ || bytes[i] === 0x58 /* X */) return esc; // strings
  while (i < bytes.length && bytes[i]! >= 0x20 && bytes[i]! <= 0x2f) i++;
  return i < bytes.length && bytes[i]! >= 0x30 && bytes[i]! <= 0x7e ? i : esc;
}
