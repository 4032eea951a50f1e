// size-owner.ts: who decides the one size of a session's PTY.
// Rules: while the desk terminal is attached it owns the size. Otherwise the viewer that most
// recently took control (typed, or pressed "fit") owns it until it leaves; then ownership returns to
// the previous taker still present. Only the owner's terminal-query replies reach the PTY.
import type { TerminalSize } from '@tether/shared';

export type SizeOwner = { kind: 'desk' } | { kind: 'viewer'; viewerId: string } | { kind: 'none' };

export type SizeOwnership = {
  owner(): SizeOwner;
  /** The size the PTY should have now, or null when nobody has claimed it. */
  size(): TerminalSize | null;
  deskAttached(size: TerminalSize): boolean;
  deskResized(size: TerminalSize): boolean;
  deskDetached(): boolean;
  /** A viewer typed or pressed "fit": it becomes the owner (unless the desk is attached). */
  takeControl(viewerId: string, size: TerminalSize): boolean;
  /** A viewer's window changed; only the owner's change resizes the PTY. */
  viewerResized(viewerId: string, size: TerminalSize): boolean;
  viewerLeft(viewerId: string): boolean;
  isOwner(viewerId: string): boolean;
};

/** Every mutator returns true when the PTY size must change (the caller resizes it). */
export function createSizeOwnership(): SizeOwnership {
  let desk: TerminalSize | null = null;
  // Viewers in the order they took control; the last one present is the owner.
  const takers: Array<{ viewerId: string; size: TerminalSize }> = [];

  const current = (): TerminalSize | null => desk ?? takers.at(-1)?.size ?? null;
  const same = (a: TerminalSize | null, b: TerminalSize | null) =>
    a === b || (!!a && !!b && a.cols === b.cols && a.rows === b.rows);
  function change(mutate: () => void): boolean {
    const before = current();
    mutate();
    const after = current();
    return after !== null && !same(before, after);
  }

  return {
    owner() {
      if (desk) return { kind: 'desk' };
      const last = takers.at(-1);
      return last ? { kind: 'viewer', viewerId: last.viewerId } : { kind: 'none' };
    },
    size: current,
    deskAttached: (size) => change(() => (desk = size)),
    deskResized: (size) => change(() => (desk = size)),
    deskDetached: () => change(() => (desk = null)),
    takeControl(viewerId, size) {
      return change(() => {
        const i = takers.findIndex((t) => t.viewerId === viewerId);
        if (i !== -1) takers.splice(i, 1);
        takers.push({ viewerId, size });
      });
    },
    viewerResized(viewerId, size) {
      return change(() => {
        const t = takers.find((x) => x.viewerId === viewerId);
        if (t) t.size = size;
      });
    },
    viewerLeft(viewerId) {
      return change(() => {
        const i = takers.findIndex((t) => t.viewerId === viewerId);
        if (i !== -1) takers.splice(i, 1);
      });
    },
    isOwner(viewerId) {
      return !desk && takers.at(-1)?.viewerId === viewerId;
    },
  };
}
