// terminal.ts: PTY bytes mirrored through the hub. Every chunk carries the absolute byte offset of
// its first byte, so a viewer that rejoins asks for `since` and gets exactly what it missed.
import { z } from 'zod';
import { SessionIdSchema } from './ids.ts';

/** Binary payloads arrive as Buffer (Bun/Node), Uint8Array or ArrayBuffer (browsers). */
export const BytesSchema = z.custom<Uint8Array | ArrayBuffer>(
  (v) => v instanceof Uint8Array || v instanceof ArrayBuffer,
  'expected binary data',
);
export { TERMINAL_ACK_BYTES, toBytes } from './wire.ts';

/** PTY sizes. 1000 columns is wider than any real screen and bounds a snapshot's size. */
export const ColsSchema = z.number().int().min(2).max(1000);
export const RowsSchema = z.number().int().min(1).max(500);
export const OffsetSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const TerminalSizeSchema = z.object({ cols: ColsSchema, rows: RowsSchema });
export type TerminalSize = z.infer<typeof TerminalSizeSchema>;

/** Runner → hub: a chunk of PTY output. */
export const TerminalOutputSchema = z.object({
  sessionId: SessionIdSchema,
  offset: OffsetSchema,
  data: BytesSchema,
});
export type TerminalOutput = z.infer<typeof TerminalOutputSchema>;

/** One PTY of a runner (a random id per spawn): offsets count from 0 in each. */
export const TerminalRunSchema = z.string().min(1).max(64);

/** Tool-call moments (chat.ts TerminalMomentSchema) the runner's screen model located in a
 *  snapshot: `line` is the row, counted from the snapshot's first serialized row, that was the top
 *  of the screen when byte `offset` had been drawn. `lines` is how many rows the snapshot holds
 *  (history + screen), so a viewer whose scrollback cut the top can shift. */
export const TerminalSnapshotMarksSchema = z.object({
  run: TerminalRunSchema,
  lines: z.number().int().min(0).max(100_000),
  anchors: z.array(z.object({ offset: OffsetSchema, line: z.number().int().min(0).max(100_000) })).max(2_000),
  /** The screen itself (serialized, no history) at the most recent moments: what a viewer shows
   *  when the moment has no row to scroll to (claude 2.1.330 draws in the alternate screen, which
   *  has no scrollback). */
  stills: z
    .array(z.object({ offset: OffsetSchema, cols: ColsSchema, rows: RowsSchema, data: z.string().max(64 * 1024) }))
    .max(64)
    .default([]),
});
export type TerminalSnapshotMarks = z.infer<typeof TerminalSnapshotMarksSchema>;

/** A session's screen as it stands at byte `offset`: its size from that byte on. */
const SCREEN_AT_OFFSET = {
  sessionId: SessionIdSchema,
  offset: OffsetSchema,
  cols: ColsSchema,
  rows: RowsSchema,
};

/** A serialized screen (from @xterm/addon-serialize) valid at byte `offset`. */
export const TerminalSnapshotSchema = z.object({
  ...SCREEN_AT_OFFSET,
  data: z.string().max(16 * 1024 * 1024),
  marks: TerminalSnapshotMarksSchema.optional(),
});
export type TerminalSnapshot = z.infer<typeof TerminalSnapshotSchema>;

export const TerminalSubscribeSchema = z.object({
  sessionId: SessionIdSchema,
  since: OffsetSchema.optional(),
});
export const TerminalInputSchema = z.object({
  sessionId: SessionIdSchema,
  data: z.string().min(1).max(64 * 1024),
});
export const TerminalResizeSchema = z.object({
  sessionId: SessionIdSchema,
  cols: ColsSchema,
  rows: RowsSchema,
  /** The user pressed "fit to my screen": this viewer takes control of the size. */
  fit: z.boolean().default(false),
});

/** `tether attach` → hub → runner: a desk terminal attached (with its size, re-sent on every resize)
 *  or detached. While attached it owns the PTY size and counts as the session's desk. */
export const TerminalDeskSchema = z.object({
  sessionId: SessionIdSchema,
  attached: z.boolean(),
  cols: ColsSchema.optional(),
  rows: RowsSchema.optional(),
});
export type TerminalDesk = z.infer<typeof TerminalDeskSchema>;

/** Runner → hub: the PTY's size changed (or the runner (re)connected). `offset` is the first byte
 *  written at the new size; `desk` is true while a local terminal is attached (it owns the size). */
export const TerminalSizeReportSchema = z.object({
  ...SCREEN_AT_OFFSET,
  desk: z.boolean(),
});
export type TerminalSizeReport = z.infer<typeof TerminalSizeReportSchema>;

/** Hub → viewer: the PTY size from byte `offset` on, and who holds it (`you` = this viewer). */
export type TerminalSizeNotice = {
  sessionId: string;
  offset: number;
  cols: number;
  rows: number;
  owner: 'desk' | 'you' | 'other' | 'none';
};
