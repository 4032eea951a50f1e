import { describe, expect, it } from 'vitest';
import type { TerminalSnapshot } from '@tether/shared';
import { createTerminalRoom } from './room.ts';

const SID = '00000000-0000-4000-8000-000000000001';
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

function fakeRunner() {
  const calls = { input: [] as string[], resize: [] as string[], viewers: [] as number[], snapshots: 0 };
  return {
    calls,
    port: {
      input: (d: string) => calls.input.push(d),
      resize: (s: { cols: number; rows: number }) => calls.resize.push(`${s.cols}x${s.rows}`),
      viewers: (n: number) => calls.viewers.push(n),
      requestSnapshot: () => calls.snapshots++,
    },
  };
}

function fakeViewer() {
  const got = { text: '', snapshots: [] as TerminalSnapshot[], offsets: [] as number[] };
  return {
    got,
    sink: {
      bytes: (offset: number, data: Uint8Array) => {
        got.offsets.push(offset);
        got.text += dec(data);
      },
      snapshot: (s: TerminalSnapshot) => {
        got.snapshots.push(s);
        got.text = `[snap@${s.offset}]`;
      },
    },
  };
}

const snap = (offset: number): TerminalSnapshot => ({ sessionId: SID, offset, cols: 80, rows: 24, data: 'screen' });

type FakeViewer = ReturnType<typeof fakeViewer>;

/** A room past its first snapshot (at offset 0) with these viewers joined in order; by default one,
 *  'a', who may write. `viewer` is the first of them. */
function joinedRoom<Id extends string = 'a'>(
  options: Partial<Pick<Parameters<typeof createTerminalRoom>[0], 'maxBytes' | 'highWater' | 'fanout'>> & { viewers?: Array<{ id: Id; canWrite?: boolean; hops?: number }> } = {},
) {
  const { viewers: joining = [{ id: 'a' as Id, canWrite: true }], ...roomOptions } = options;
  const runner = fakeRunner();
  const room = createTerminalRoom({ sessionId: SID, runner: runner.port, ...roomOptions });
  const viewers = {} as Record<Id, FakeViewer>;
  for (const { id, canWrite = false, hops } of joining) {
    viewers[id] = fakeViewer();
    room.join({ viewerId: id, sink: viewers[id].sink, canWrite, ...(hops ? { hops } : {}) });
  }
  room.snapshot(snap(0));
  return { runner, room, viewer: viewers[joining[0]!.id], viewers };
}

describe('terminal room', () => {
  it('asks the runner for a snapshot on first join, then streams bytes after it', () => {
    const r = fakeRunner();
    const room = createTerminalRoom({ sessionId: SID, runner: r.port });
    const v = fakeViewer();
    expect(room.join({ viewerId: 'a', sink: v.sink, canWrite: true })).toBe('snapshot');
    expect(r.calls.viewers).toEqual([1]);
    expect(r.calls.snapshots).toBe(1);
    room.snapshot(snap(100));
    room.output(100, enc('hello'));
    room.output(105, enc(' world'));
    expect(v.got.text).toBe('[snap@100]hello world');
  });

  it('resumes a rejoining viewer with exactly the bytes it missed', () => {
    const { room, viewer: a } = joinedRoom();
    room.output(0, enc('abc'));
    const b = fakeViewer();
    room.join({ viewerId: 'b', sink: b.sink, canWrite: true });
    room.snapshot(snap(3));
    room.leave('b');
    room.output(3, enc('def'));
    const b2 = fakeViewer();
    expect(room.join({ viewerId: 'b', sink: b2.sink, canWrite: true, since: 3 })).toBe('bytes');
    expect(b2.got.text).toBe('def');
    expect(b2.got.offsets).toEqual([3]);
  });

});

describe('terminal room: flow control', () => {
  it('pauses a stalled viewer without slowing another, and resyncs it when its bytes are gone', () => {
    const { runner: r, room, viewers: { slow, fast } } = joinedRoom({ maxBytes: 1000, highWater: 100, viewers: [{ id: 'slow' }, { id: 'fast' }] });
    let offset = 0;
    for (let i = 0; i < 100; i++) {
      const chunk = enc('x'.repeat(50));
      room.output(offset, chunk);
      offset += chunk.length;
      room.ack('fast', offset);
    }
    expect(fast.got.text.length).toBe('[snap@0]'.length + 5000);
    expect(slow.got.text.length).toBeLessThan('[snap@0]'.length + 200);
    expect(room.log.heldBytes).toBeLessThanOrEqual(1000);
    const before = r.calls.snapshots;
    room.ack('slow', 150); // caught up with what it was sent, but its next bytes were dropped
    expect(r.calls.snapshots).toBe(before + 1);
    room.snapshot(snap(offset));
    expect(slow.got.text).toBe(`[snap@${offset}]`);
  });

  it('resumes a paused viewer from the log chunk by chunk, up to its high water each time', () => {
    const { room, viewer: slow } = joinedRoom({ maxBytes: 100_000, highWater: 100_000, viewers: [{ id: 'slow' }] });
    const chunk = new Uint8Array(30_000).fill(120);
    for (let offset = 0; offset < 90_000; offset += chunk.length) room.output(offset, chunk);
    room.output(90_000, chunk); // past high water: paused after this one
    room.output(120_000, chunk); // held in the log only, as are the next
    room.output(150_000, chunk);
    expect(slow.got.offsets).toEqual([0, 30_000, 60_000, 90_000]);
    room.ack('slow', 60_000); // 60 000 still in flight: more than half the high water, still paused
    expect(slow.got.offsets.length).toBe(4);
    room.ack('slow', 90_000); // 30 000 in flight: it resumes
    // The rest comes as the log's chunks (views, not one copy of everything since), then in step.
    expect(slow.got.offsets).toEqual([0, 30_000, 60_000, 90_000, 120_000, 150_000]);
    room.output(180_000, chunk);
    expect(slow.got.offsets.at(-1)).toBe(180_000);
    expect(slow.got.text.length).toBe('[snap@0]'.length + 210_000);
    expect(slow.got.snapshots.length).toBe(1);
  });

  it('gives a viewer two hops away (on another hub) twice the window before pausing it', () => {
    const { room, viewers: { local, linked } } = joinedRoom({ maxBytes: 100_000, highWater: 100, viewers: [{ id: 'local' }, { id: 'linked', hops: 2 }] });
    for (let offset = 0; offset < 500; offset += 50) room.output(offset, enc('y'.repeat(50)));
    // Nobody acks: the local viewer stops past 100 unacked bytes, the linked one past 200.
    expect(local.got.offsets).toEqual([0, 50, 100]);
    expect(linked.got.offsets).toEqual([0, 50, 100, 150, 200]);
    room.ack('linked', 200); // 50 in flight: ≤ half its window, it resumes from the log
    expect(linked.got.text.length).toBe('[snap@0]'.length + 500);
    expect(local.got.text.length).toBe('[snap@0]'.length + 150);
  });

  it('sends a chunk larger than the log to the viewers at it, without a resync', () => {
    // The log holds 10 bytes; the runner batches a burst into one 25-byte event. The chunk's first
    // bytes are evicted as it is appended, but the viewers that were exactly at it are owed them.
    for (const fanout of [false, true]) {
      const shared: string[] = [];
      const { runner: r, room, viewers: { a, b } } = joinedRoom({
        maxBytes: 10,
        ...(fanout ? { fanout: (_ids: string[], _offset: number, data: Uint8Array) => shared.push(dec(data)) } : {}),
        viewers: [{ id: 'a', canWrite: true }, { id: 'b', canWrite: true }],
      });
      room.output(0, enc('abc'));
      const requested = r.calls.snapshots;
      room.output(3, enc('0123456789012345678901234'));
      expect(r.calls.snapshots).toBe(requested);
      expect(a.got.snapshots.length).toBe(1);
      expect(b.got.snapshots.length).toBe(1);
      if (fanout) expect(shared.join('')).toBe('abc0123456789012345678901234');
      else {
        expect(a.got.text).toBe('[snap@0]abc0123456789012345678901234');
        expect(b.got.text).toBe(a.got.text);
      }
      room.output(28, enc('!'));
      expect(r.calls.snapshots).toBe(requested);
      // A viewer whose bytes really are gone still gets a snapshot.
      room.leave('b');
      const b2 = fakeViewer();
      expect(room.join({ viewerId: 'b', sink: b2.sink, canWrite: true, since: 3 })).toBe('snapshot');
    }
  });

  it('gives a viewer in the middle of a new chunk only the rest of it', () => {
    const { runner: r, room, viewer: a } = joinedRoom({ maxBytes: 4 });
    room.output(0, enc('abcd'));
    room.output(2, enc('cdefgh')); // overlaps what the viewer has, and outgrows the log
    expect(a.got.text).toBe('[snap@0]abcdefgh');
    expect(a.got.offsets).toEqual([0, 4]);
    expect(r.calls.snapshots).toBe(1);
  });

});

describe('terminal room: the size and who types', () => {
  it('keeps a size report over a snapshot read at the same offset before that resize', () => {
    // The runner reads snapshots asynchronously: a snapshot asked for at offset 0 can be read at
    // 80x24 and sent after the resize to 100x30 that was reported at offset 0.
    const r = fakeRunner();
    const room = createTerminalRoom({ sessionId: SID, runner: r.port });
    const sizes: string[] = [];
    const v = fakeViewer();
    room.join({ viewerId: 'b', sink: { ...v.sink, size: (n) => sizes.push(`${n.cols}x${n.rows}@${n.offset}`) }, canWrite: true });
    room.ptyResized({ offset: 0, cols: 100, rows: 30, desk: false });
    room.snapshot(snap(0));
    expect(room.ptySize).toEqual({ offset: 0, cols: 100, rows: 30 });
    expect(sizes).toEqual(['100x30@0']);
    // A snapshot past the report carries the size from there on.
    room.snapshot({ ...snap(5), cols: 90, rows: 20 });
    expect(room.ptySize).toEqual({ offset: 5, cols: 90, rows: 20 });
  });

  it('keeps read-only viewers from typing or resizing', () => {
    const r = fakeRunner();
    const room = createTerminalRoom({ sessionId: SID, runner: r.port });
    room.join({ viewerId: 'ro', sink: fakeViewer().sink, canWrite: false });
    expect(room.input('ro', 'rm -rf /\r')).toBe('read-only');
    expect(room.resize('ro', { cols: 10, rows: 10 }, true)).toBe('read-only');
    expect(r.calls.input).toEqual([]);
    expect(room.input('stranger', 'x')).toBe('not-joined');
  });

  it('passes only the owner\'s terminal replies and lets a typing viewer take control', () => {
    const r = fakeRunner();
    const room = createTerminalRoom({ sessionId: SID, runner: r.port });
    room.join({ viewerId: 'a', sink: fakeViewer().sink, canWrite: true });
    room.join({ viewerId: 'b', sink: fakeViewer().sink, canWrite: true });
    room.resize('a', { cols: 100, rows: 30 }, true);
    expect(r.calls.resize).toEqual(['100x30']);
    expect(room.input('a', '\x1b[?1;2c')).toBe('written');
    expect(room.input('b', '\x1b[?1;2c')).toBe('dropped');
    expect(room.input('b', 'y')).toBe('written');
    expect(room.size.isOwner('b')).toBe(true);
    expect(r.calls.input).toEqual(['\x1b[?1;2c', 'y']);
  });

});

describe('terminal room: the end', () => {
  it('replays the final screen after the terminal ended', () => {
    const r = fakeRunner();
    const room = createTerminalRoom({ sessionId: SID, runner: r.port });
    room.end(snap(42));
    const v = fakeViewer();
    expect(room.join({ viewerId: 'late', sink: v.sink, canWrite: true })).toBe('snapshot');
    expect(v.got.snapshots[0]?.offset).toBe(42);
    expect(r.calls.snapshots).toBe(0);
  });

  it('frees its log when the terminal ends, keeping only the bytes after the final screen', () => {
    const { runner: r, room, viewer: a } = joinedRoom();
    const page = 'x'.repeat(10_000);
    room.output(0, enc(page));
    room.snapshot(snap(10_000)); // the final screen
    room.output(10_000, enc('bye'));
    room.end();
    expect(room.log.heldBytes).toBe(3);
    expect(room.log.start).toBe(10_000);
    room.output(10_003, enc('late bytes of a gone PTY'));
    expect(room.log.heldBytes).toBe(3);
    room.leave('a');
    // A late viewer, and one coming back from before the final screen: the screen, then 'bye'.
    const late = fakeViewer();
    expect(room.join({ viewerId: 'late', sink: late.sink, canWrite: true })).toBe('snapshot');
    expect(late.got.text).toBe('[snap@10000]bye');
    const back = fakeViewer();
    expect(room.join({ viewerId: 'a', sink: back.sink, canWrite: true, since: 5 })).toBe('snapshot');
    expect(back.got.text).toBe('[snap@10000]bye');
    expect(r.calls.snapshots).toBe(1);
  });

  it('keeps an older screen alone when a runner died far past it (never replays a part of what followed)', () => {
    const { room } = joinedRoom();
    const chunk = new Uint8Array(64 * 1024).fill(120);
    for (let offset = 0; offset < 4 * chunk.length; offset += chunk.length) room.output(offset, chunk);
    room.end(); // no final screen: the runner is gone
    expect(room.log.heldBytes).toBe(0);
    const late = fakeViewer();
    expect(room.join({ viewerId: 'late', sink: late.sink, canWrite: true })).toBe('snapshot');
    expect(late.got.text).toBe('[snap@0]');
    expect(late.got.snapshots.length).toBe(1);
  });
});

describe('terminal room fan-out', () => {
  it('sends a chunk once to every viewer in step, and per viewer to the rest', () => {
    const shared: Array<{ ids: string[]; offset: number; text: string }> = [];
    const { runner: r, room, viewers: { a, b } } = joinedRoom({
      fanout: (ids, offset, data) => shared.push({ ids, offset, text: dec(data) }),
      viewers: [{ id: 'a', canWrite: true }, { id: 'b', canWrite: true }],
    });
    room.output(0, enc('hello'));
    expect(shared).toEqual([{ ids: ['a', 'b'], offset: 0, text: 'hello' }]);
    // c joins from an older offset: it catches up alone, then moves in step with the others.
    const c = fakeViewer();
    room.join({ viewerId: 'c', sink: c.sink, canWrite: true, since: 2 });
    expect(c.got.text).toBe('llo');
    room.output(5, enc('!'));
    expect(shared.at(-1)).toEqual({ ids: ['a', 'b', 'c'], offset: 5, text: '!' });
  });
});
