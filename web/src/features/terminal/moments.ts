// moments.ts: turns PTY byte offsets (a tool call's terminal moment) into rows of this viewer's
// xterm, so "Show in terminal" can scroll to the screen as it was at that moment.
//
//   snapshot {offset, marks: {run, lines, anchors}} ─► one marker per anchor (the runner located them)
//   each chunk parsed, ending at byte E ─► the screen's top row then (a marker, shared by every E
//                                          until the screen scrolls)
//   locate({run, start, end}) ─► the row that was the top of the screen | the screen itself (a
//                                still the runner kept) | gone | not drawn yet
//
// Markers move with their rows as the screen scrolls and dispose themselves when their row leaves
// the scrollback (or claude clears it), which is how "too old" is known. A moment before the
// snapshot this viewer started from is found only if the runner's snapshot located it.
// Invariant: a row is returned only for a moment of the run on screen, at or after the first byte
// this viewer knows; anything else is `gone`, never a guess.
import type { TerminalMoment, TerminalSnapshotMarks } from '@tether/shared';

export type MomentStill = TerminalSnapshotMarks['stills'][number];

/** What this needs of an xterm (the browser's, or @xterm/headless in tests). */
export type MomentMarker = { readonly line: number; readonly isDisposed: boolean; dispose(): void };
export type MomentTerminal = {
  registerMarker(cursorYOffset?: number): MomentMarker | undefined;
  readonly buffer: { readonly active: { readonly cursorY: number; readonly baseY: number; readonly length: number; readonly type: string } };
};

export type MomentPlace =
  /** `line`: the buffer row that was the top of the screen at that moment. */
  | { kind: 'found'; line: number }
  /** No row to scroll to (the alternate screen has no history), but the runner kept the screen. */
  | { kind: 'still'; still: MomentStill }
  /** Older than the scrollback, before what this viewer can know, or from another run. */
  | { kind: 'gone' }
  /** The bytes of that moment have not been drawn here yet. */
  | { kind: 'later' };

/** Screen tops remembered; each costs a marker (xterm tells every marker about every trimmed row).
 *  Tops change only when the screen scrolls, so this spans at least this many rows of history. */
const MAX_PLACES = 3_000;

export type MomentMap = ReturnType<typeof createMomentMap>;

export function createMomentMap(term: MomentTerminal) {
  let run: string | null = null;
  /** The first offset this viewer can place (the snapshot it started from). */
  let known: number | null = null;
  /** The last byte drawn so far (exclusive). */
  let drawn: number | null = null;
  /** Chunk ends in [from, to] all had the screen's top at `marker` (null: the alternate screen was
   *  showing, which has no rows to go back to). In offset order. */
  let places: Array<{ from: number; to: number; marker: MomentMarker | null }> = [];
  /** The screens the runner kept for its latest moments, by offset. Several moments can share one
   *  offset (two hooks with no PTY byte read between them: the end of one call and the start of the
   *  next), each with its own screen; they are kept in the runner's order. */
  let stills = new Map<number, MomentStill[]>();
  /** Moments at or before this were in places dropped since (their rows are gone). */
  let floor = -1;
  /** Moments before the snapshot, as the runner located them in it. */
  let anchors = new Map<number, MomentMarker>();

  const markAt = (line: number): MomentMarker | undefined => {
    const buffer = term.buffer.active;
    return term.registerMarker(line - (buffer.baseY + buffer.cursorY));
  };
  const clear = () => {
    for (const place of places) place.marker?.dispose();
    for (const marker of anchors.values()) marker.dispose();
    places = [];
    anchors = new Map();
    stills = new Map();
    floor = -1;
  };

  return {
    /** A snapshot at `offset` was just drawn into a reset terminal (call from its write callback). */
    snapshot(snapshot: { offset: number; marks?: TerminalSnapshotMarks }) {
      clear();
      run = snapshot.marks?.run ?? null;
      known = snapshot.offset;
      drawn = snapshot.offset;
      for (const still of snapshot.marks?.stills ?? []) stills.set(still.offset, [...(stills.get(still.offset) ?? []), still]);
      if (snapshot.marks && term.buffer.active.type === 'normal') {
        // Rows the scrollback here could not keep were cut from the top of the snapshot.
        const cut = Math.max(0, snapshot.marks.lines - term.buffer.active.length);
        for (const anchor of snapshot.marks.anchors) {
          const line = anchor.line - cut;
          if (line < 0) continue;
          const marker = markAt(line);
          if (marker) anchors.set(anchor.offset, marker);
        }
      }
      this.drew(snapshot.offset);
    },

    /** Every byte before `end` has been parsed (call from the write callback of the chunk). */
    drew(end: number) {
      if (known === null) return;
      drawn = end;
      const buffer = term.buffer.active;
      const last = places[places.length - 1];
      const alternate = buffer.type !== 'normal';
      const same = alternate ? last?.marker === null : last?.marker && !last.marker.isDisposed && last.marker.line === buffer.baseY;
      if (last && same) {
        last.to = end;
        return;
      }
      const marker = alternate ? null : (term.registerMarker(-buffer.cursorY) ?? null);
      if (!alternate && !marker) return;
      places.push({ from: end, to: end, marker });
      if (places.length > MAX_PLACES || places[0]!.marker?.isDisposed) {
        const keepFrom = places.length - MAX_PLACES;
        places = places.filter((place, i) => {
          const keep = !place.marker?.isDisposed && i >= keepFrom;
          if (!keep) {
            floor = Math.max(floor, place.to);
            place.marker?.dispose();
          }
          return keep;
        });
      }
    },

    /** Where `moment` is: its end if it has one (the call drawn with its result), else its start.
     *  A row in this terminal wins (the live terminal scrolls there); else the kept screen: the one
     *  that shows `hint` (the call's text) when several share the offset, else the first. */
    locate(moment: TerminalMoment, hint?: string): MomentPlace {
      // Nothing drawn yet: the snapshot this viewer starts from is still on its way.
      if (known === null || drawn === null) return { kind: 'later' };
      if (moment.run !== run) return { kind: 'gone' };
      const offset = moment.end ?? moment.start;
      const still = pickStill(stills.get(offset) ?? [], hint);
      const orStill = (): MomentPlace => (still ? { kind: 'still', still } : { kind: 'gone' });
      const anchored = anchors.get(offset);
      if (anchored) return anchored.isDisposed ? orStill() : { kind: 'found', line: anchored.line };
      if (offset < known || offset <= floor) return orStill();
      if (offset > drawn) return { kind: 'later' };
      // The screen right after the bytes before `offset`: the first chunk end at or past it.
      const place = places.find((p) => p.to >= offset);
      if (!place?.marker || place.marker.isDisposed) return orStill();
      return { kind: 'found', line: place.marker.line };
    },

    dispose: clear,
  };
}

/** Among the screens kept at one offset, the one that shows the call: compared without escape
 *  sequences and whitespace, as the serializer moves the cursor over blank cells instead of
 *  writing spaces. */
function pickStill(candidates: MomentStill[], hint: string | undefined): MomentStill | undefined {
  if (candidates.length <= 1 || !hint) return candidates[0];
  const want = hint.replace(/\s+/g, '');
  const plain = (data: string) => data.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07]*\x07/g, '').replace(/\s+/g, '');
  return candidates.find((still) => want !== '' && plain(still.data).includes(want)) ?? candidates[0];
}
