// A `tether attach` desk in a terminal room: its input is marked desk, its query replies pass (it
// owns the size through the runner's desk report), and typing never makes it a size-taking viewer.
import { describe, expect, it } from 'vitest';
import { createTerminalRoom } from './room.ts';

const SID = '00000000-0000-4000-8000-000000000002';
const sink = { bytes: () => {}, snapshot: () => {} };

function world() {
  const inputs: Array<{ data: string; desk: boolean }> = [];
  const resizes: string[] = [];
  const room = createTerminalRoom({
    sessionId: SID,
    runner: {
      input: (data, from) => inputs.push({ data, desk: from?.desk ?? false }),
      resize: (s) => resizes.push(`${s.cols}x${s.rows}`),
      viewers: () => {},
      requestSnapshot: () => {},
    },
  });
  return { room, inputs, resizes };
}

describe('terminal room: desk viewer', () => {
  it('marks desk input, lets its query replies through, and keeps a phone viewer from taking the size', () => {
    const { room, inputs, resizes } = world();
    room.join({ viewerId: 'desk', sink, canWrite: true });
    room.join({ viewerId: 'phone', sink, canWrite: true });
    expect(room.deskViewer('nobody', true)).toBe(false);
    expect(room.deskViewer('desk', true)).toBe(true);
    room.ptyResized({ offset: 0, cols: 91, rows: 27, desk: true });

    expect(room.input('desk', 'a')).toBe('written');
    expect(room.input('desk', '\x1b[5;1R')).toBe('written'); // the owner's cursor report passes
    expect(room.input('phone', 'b')).toBe('written');
    expect(room.input('phone', '\x1b[5;1R')).toBe('dropped'); // a non-owner's reply does not
    expect(inputs).toEqual([
      { data: 'a', desk: true },
      { data: '\x1b[5;1R', desk: true },
      { data: 'b', desk: false },
    ]);
    expect(room.size.owner()).toEqual({ kind: 'desk' });
    expect(resizes).toEqual([]);

    // The desk leaves: the runner reports desk: false; the phone, which typed, holds the size now.
    room.deskViewer('desk', false);
    room.ptyResized({ offset: 10, cols: 91, rows: 27, desk: false });
    expect(room.size.owner()).toEqual({ kind: 'viewer', viewerId: 'phone' });
  });
});
