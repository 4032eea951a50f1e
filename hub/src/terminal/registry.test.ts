import { describe, expect, it } from 'vitest';
import type { Namespace, TerminalSnapshot } from '@tether/shared';
import { createTerminalRegistry } from './registry.ts';
import { terminalLogCap } from './log-budget.ts';

const NS = 'ns-a' as Namespace;
const sid = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const KiB = 1024;
const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

/** Runners that count snapshot requests per session. */
function fakeRunners() {
  const snapshotRequests = new Map<string, number>();
  return {
    snapshotRequests,
    port: (_ns: Namespace, sessionId: string) => ({
      input: () => {},
      resize: () => {},
      viewers: () => {},
      requestSnapshot: () => snapshotRequests.set(sessionId, (snapshotRequests.get(sessionId) ?? 0) + 1),
    }),
  };
}

function fakeViewer() {
  const got = { text: '', snapshots: [] as TerminalSnapshot[] };
  return {
    got,
    sink: {
      bytes: (_offset: number, data: Uint8Array) => {
        got.text += dec(data);
      },
      snapshot: (s: TerminalSnapshot) => {
        got.snapshots.push(s);
        got.text = `[snap@${s.offset}]`;
      },
    },
  };
}

const snap = (sessionId: string, offset: number): TerminalSnapshot => ({ sessionId, offset, cols: 80, rows: 24, data: 'screen' });

/** A deterministic stream of chunk sizes: mostly PTY-sized, some bigger than any cap here. */
function chunkSizes(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    const r = x % 100;
    return r < 80 ? 1 + (x % 200) : r < 95 ? 4 * KiB + (x % (8 * KiB)) : 40 * KiB + (x % (20 * KiB));
  };
}

/** The budget every test here runs under: 64 KiB in all, 4 to 32 KiB a terminal. */
const limits = { terminalMemoryBytes: 64 * KiB, minBytesPerTerminal: 4 * KiB, maxBytesPerTerminal: 32 * KiB };

describe('terminal registry memory budget', () => {
  it('keeps the sum of all logs within max(budget, live × floor) under heavy output', () => {
    const registry = createTerminalRegistry({ runnerPort: fakeRunners().port, ...limits });
    const offsets: number[] = [];
    const next = chunkSizes(7);
    // Rooms arrive one by one up to 40 (past budget ÷ floor = 16, where the floor takes over), and
    // every room prints after each arrival.
    for (let n = 1; n <= 40; n++) {
      registry.get(NS, sid(n));
      offsets.push(0);
      const cap = terminalLogCap({ budget: limits.terminalMemoryBytes, live: n, floor: limits.minBytesPerTerminal, max: limits.maxBytesPerTerminal });
      for (let round = 0; round < 6; round++) {
        for (let i = 1; i <= n; i++) {
          const size = next();
          registry.get(NS, sid(i)).output(offsets[i - 1]!, new Uint8Array(size).fill(i));
          offsets[i - 1]! += size;
        }
        const memory = registry.memory();
        expect(memory.liveTerminals).toBe(n);
        expect(memory.capBytes).toBe(cap);
        expect(memory.logBytes).toBeLessThanOrEqual(Math.max(limits.terminalMemoryBytes, n * limits.minBytesPerTerminal));
      }
      for (let i = 1; i <= n; i++) expect(registry.find(NS, sid(i))!.log.maxBytes).toBe(cap);
    }
    // Heavy enough that every log is full: the bound is met by trimming, not by idleness.
    for (let i = 1; i <= 40; i++) {
      registry.get(NS, sid(i)).output(offsets[i - 1]!, new Uint8Array(5 * KiB).fill(i));
      offsets[i - 1]! += 5 * KiB;
    }
    expect(registry.memory()).toMatchObject({ capBytes: 4 * KiB, logBytes: 40 * 4 * KiB });
  });

  it('gives the terminals left a larger share again when others end, and frees the ended logs', async () => {
    const registry = createTerminalRegistry({ runnerPort: fakeRunners().port, ...limits });
    const big = new Uint8Array(40 * KiB).fill(120);
    for (let i = 1; i <= 8; i++) registry.get(NS, sid(i)).output(0, big);
    expect(registry.memory()).toMatchObject({ liveTerminals: 8, capBytes: 8 * KiB, logBytes: 64 * KiB });
    for (let i = 1; i <= 6; i++) {
      // The runner's final screen is read at its last byte, just before the end.
      registry.get(NS, sid(i)).snapshot(snap(sid(i), big.length));
      await registry.ended(NS, sid(i));
      expect(registry.find(NS, sid(i))!.log.heldBytes).toBe(0);
    }
    expect(registry.memory()).toMatchObject({ liveTerminals: 2, capBytes: 32 * KiB, logBytes: 2 * 8 * KiB });
    // The grown cap is used: the two left fill up to it.
    for (const i of [7, 8]) registry.get(NS, sid(i)).output(big.length, big);
    expect(registry.find(NS, sid(7))!.log.heldBytes).toBe(32 * KiB);
    expect(registry.memory().logBytes).toBe(64 * KiB);
    // A resumed session (its ended room dropped, a new one made) counts as live again.
    await registry.running(NS, sid(1));
    registry.get(NS, sid(1));
    expect(registry.memory()).toMatchObject({ liveTerminals: 3, capBytes: Math.floor((64 * KiB) / 3) });
    expect(registry.find(NS, sid(7))!.log.heldBytes).toBe(Math.floor((64 * KiB) / 3));
  });

  it('evicting ended rooms leaves the live caps as they are', async () => {
    const registry = createTerminalRegistry({ runnerPort: fakeRunners().port, ...limits, maxEndedRooms: 1 });
    for (let i = 1; i <= 4; i++) registry.get(NS, sid(i));
    expect(registry.memory().capBytes).toBe(16 * KiB);
    await registry.ended(NS, sid(1));
    await registry.ended(NS, sid(2));
    expect(registry.find(NS, sid(1))).toBeNull();
    expect(registry.size).toBe(3);
    expect(registry.memory()).toMatchObject({ liveTerminals: 2, capBytes: 32 * KiB });
  });

});

describe('terminal registry memory budget: viewers behind a lowered cap', () => {
  it('resyncs a late joiner whose bytes a lower cap trimmed from a snapshot, and replays exact bytes to one still in range', () => {
    const runners = fakeRunners();
    const registry = createTerminalRegistry({ runnerPort: runners.port, ...limits });
    const room = registry.get(NS, sid(1));
    const first = fakeViewer();
    // Someone keeps watching, so the runner keeps streaming while the others are away.
    room.join({ viewerId: 'watcher', sink: fakeViewer().sink, canWrite: false });
    room.join({ viewerId: 'early', sink: first.sink, canWrite: true });
    room.snapshot(snap(sid(1), 0));
    let offset = 0;
    let printed = '';
    for (let i = 0; i < 600; i++) {
      const line = `line ${i}`.padEnd(48, '.') + '\r\n';
      room.output(offset, enc(line));
      offset += line.length;
      printed += line;
      room.ack('early', offset);
      room.ack('watcher', offset);
    }
    expect(first.got.text).toBe(`[snap@0]${printed}`);
    room.leave('early');
    const leftAt = offset;
    const recentAt = offset - 2 * KiB;
    expect(room.log.has(10 * KiB)).toBe(true);
    // Fifteen more sessions start: this log's cap drops from 32 KiB to 4 KiB at once.
    for (let i = 2; i <= 16; i++) registry.get(NS, sid(i));
    expect(room.log.maxBytes).toBe(4 * KiB);
    expect(room.log.heldBytes).toBe(4 * KiB);
    // Within the 4 KiB still held: exactly the bytes missed, no snapshot.
    const recent = fakeViewer();
    expect(room.join({ viewerId: 'recent', sink: recent.sink, canWrite: true, since: recentAt })).toBe('bytes');
    expect(recent.got.text).toBe(printed.slice(recentAt));
    // From before the trimmed start: a snapshot from the runner, then the bytes after it.
    const requested = runners.snapshotRequests.get(sid(1)) ?? 0;
    const late = fakeViewer();
    expect(room.join({ viewerId: 'late', sink: late.sink, canWrite: true, since: 10 * KiB })).toBe('snapshot');
    expect(runners.snapshotRequests.get(sid(1))).toBe(requested + 1);
    room.snapshot(snap(sid(1), leftAt));
    room.output(leftAt, enc('after'));
    expect(late.got.snapshots.map((s) => s.offset)).toEqual([leftAt]);
    expect(late.got.text).toBe(`[snap@${leftAt}]after`);
    expect(recent.got.text).toBe(printed.slice(recentAt) + 'after');
    expect(recent.got.snapshots).toEqual([]);
  });

  it('resyncs a paused viewer whose unsent bytes a lower cap trimmed', () => {
    const runners = fakeRunners();
    const registry = createTerminalRegistry({ runnerPort: runners.port, ...limits });
    const room = registry.get(NS, sid(1));
    const slow = fakeViewer();
    room.join({ viewerId: 'slow', sink: slow.sink, canWrite: true });
    room.snapshot(snap(sid(1), 0));
    // Past its 1 MiB high water it is paused; the rest stays in the (32 KiB) log.
    const chunk = new Uint8Array(16 * KiB).fill(97);
    let offset = 0;
    for (; offset < 1024 * KiB + 2 * chunk.length; offset += chunk.length) room.output(offset, chunk);
    const sentBefore = slow.got.text.length;
    for (let i = 2; i <= 16; i++) registry.get(NS, sid(i));
    expect(room.log.heldBytes).toBe(4 * KiB);
    const requested = runners.snapshotRequests.get(sid(1)) ?? 0;
    room.ack('slow', 1024 * KiB + chunk.length);
    expect(runners.snapshotRequests.get(sid(1))).toBe(requested + 1);
    expect(slow.got.text.length).toBe(sentBefore);
    room.snapshot(snap(sid(1), offset));
    expect(slow.got.text).toBe(`[snap@${offset}]`);
  });

  it('refuses a budget that is not a positive number', () => {
    expect(() => createTerminalRegistry({ runnerPort: fakeRunners().port, terminalMemoryBytes: 0 })).toThrow(/budget/);
    expect(() => createTerminalRegistry({ runnerPort: fakeRunners().port, terminalMemoryBytes: Number.NaN })).toThrow(/budget/);
  });
});
