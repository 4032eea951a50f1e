import { describe, expect, it } from 'vitest';
import { createByteLog, type ByteLog } from './byte-log.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | 'gone') => (b === 'gone' ? 'gone' : new TextDecoder().decode(b));

/** What reading the log piece by piece from `from` yields (until a piece is gone or empty). */
function walk(log: ByteLog, from: number): string {
  let at = from;
  let walked = '';
  for (let p = log.piece(at); p !== 'gone' && p.length > 0; p = log.piece(at)) {
    walked += text(p);
    at += p.length;
  }
  return walked;
}

/** Appends `count` ASCII pieces (`piece(i)`) end to end, calling `each` after each; returns all it wrote. */
function appendPieces(log: ByteLog, o: { count: number; piece: (i: number) => string; each?: (i: number, all: string) => void }): string {
  let all = '';
  for (let i = 0; i < o.count; i++) {
    const piece = o.piece(i);
    log.append(all.length, bytes(piece));
    all += piece;
    o.each?.(i, all);
  }
  return all;
}

describe('byte log', () => {
  it('returns exactly the bytes since an offset', () => {
    const log = createByteLog({ maxBytes: 100 });
    log.append(0, bytes('hello '));
    log.append(6, bytes('world'));
    expect(text(log.since(0))).toBe('hello world');
    expect(text(log.since(3))).toBe('lo world');
    expect(text(log.since(11))).toBe('');
    expect(log.end).toBe(11);
  });

  it('stays within maxBytes and says "gone" for bytes it dropped', () => {
    const log = createByteLog({ maxBytes: 8 });
    for (let i = 0; i < 10; i++) log.append(i * 3, bytes(`${i}${i}${i}`));
    expect(log.heldBytes).toBe(8);
    expect(log.start).toBe(22);
    expect(log.end).toBe(30);
    expect(log.since(21)).toBe('gone');
    expect(text(log.since(22))).toBe('77888999');
    expect(text(log.since(24))).toBe('888999');
  });

  it('holds a byte-exact suffix after trimming inside a chunk', () => {
    const log = createByteLog({ maxBytes: 5 });
    log.append(0, bytes('abcdefgh'));
    expect(log.start).toBe(3);
    expect(text(log.since(3))).toBe('defgh');
  });

  it('ignores bytes it already holds and restarts after a gap', () => {
    const log = createByteLog({ maxBytes: 100 });
    log.append(0, bytes('abcdef'));
    log.append(3, bytes('defXYZ'));
    expect(text(log.since(0))).toBe('abcdefXYZ');
    log.append(20, bytes('new'));
    expect(log.start).toBe(20);
    expect(log.since(9)).toBe('gone');
    expect(text(log.since(20))).toBe('new');
  });

  it('copies appended data so a reused buffer does not change history', () => {
    const log = createByteLog();
    const buf = bytes('aaaa');
    log.append(0, buf);
    buf.fill(98);
    expect(text(log.since(0))).toBe('aaaa');
  });

  it('reads by piece: a stored chunk as a view, runs of small chunks merged', () => {
    const log = createByteLog({ maxBytes: 1024 * 1024 });
    const big = new Uint8Array(20_000).fill(97);
    log.append(0, big);
    log.append(20_000, bytes('x'));
    log.append(20_001, bytes('yz'));
    log.append(20_003, big);
    const first = log.piece(0);
    expect(first !== 'gone' && first.length).toBe(20_000);
    // A short tail of a chunk counts as small too: merged with the small chunks after it.
    const mid = log.piece(10_000);
    expect(mid !== 'gone' && mid.length).toBe(10_003);
    expect(text(log.piece(20_000))).toBe('xyz');
    expect(text(log.piece(20_001))).toBe('yz');
    const last = log.piece(20_003);
    expect(last !== 'gone' && last.length).toBe(20_000);
    expect(text(log.piece(40_003))).toBe('');
    // Walking by pieces yields exactly since(0).
    expect(walk(log, 0)).toBe(text(log.since(0)));
    expect(log.has(0)).toBe(true);
  });

  it('says "gone" by piece once trimmed', () => {
    const log = createByteLog({ maxBytes: 8 });
    log.append(0, bytes('abcdefghij'));
    expect(log.piece(1)).toBe('gone');
    expect(log.has(1)).toBe(false);
    expect(text(log.piece(2))).toBe('cdefghij');
  });
  it('copies a Buffer too (its own slice() would be a view of the socket frame)', () => {
    const log = createByteLog();
    const frame = Buffer.from('xxaaaaaaaa');
    log.append(0, frame.subarray(2));
    log.append(8, Buffer.alloc(5000, 'b'));
    frame.fill('z');
    expect(text(log.since(0))).toBe('aaaaaaaa' + 'b'.repeat(5000));
  });

});

describe('byte log: shared blocks and caps', () => {
  it('keeps exact bytes when many small appends share blocks, across trims and big appends', () => {
    const log = createByteLog({ maxBytes: 50_000 });
    const all = appendPieces(log, {
      count: 3000,
      piece: (i) => (i % 500 === 499 ? 'B'.repeat(6000) : `${i}`.padEnd(37, '.') + '\r\n'),
      each: (i, written) => {
        if (i % 97 !== 0) return;
        expect(log.end).toBe(written.length);
        expect(text(log.since(log.start))).toBe(written.slice(log.start));
      },
    });
    expect(log.heldBytes).toBe(50_000);
    expect(log.since(log.start - 1)).toBe('gone');
    expect(walk(log, log.start)).toBe(all.slice(log.start));
  });

  it('trims inside the shared block without bringing trimmed bytes back', () => {
    const log = createByteLog({ maxBytes: 6 });
    log.append(0, bytes('abcd'));
    log.append(4, bytes('efgh'));
    expect(log.start).toBe(2);
    log.append(8, bytes('ij'));
    expect(log.start).toBe(4);
    expect(text(log.since(4))).toBe('efghij');
    expect(text(log.piece(5))).toBe('fghij');
  });

  it('drops the oldest bytes at once when its cap is lowered, and keeps what is still held exact', () => {
    const log = createByteLog({ maxBytes: 100_000 });
    // Small appends (shared blocks) and big ones (own arrays), so the cut lands in both kinds.
    const all = appendPieces(log, { count: 400, piece: (i) => (i % 50 === 49 ? 'Z'.repeat(9000) : `${i}`.padEnd(97, '-') + '\r\n') });
    const offset = all.length;
    expect(log.heldBytes).toBe(100_000);
    for (const cap of [30_000, 12_345, 9_001, 150]) {
      log.setMaxBytes(cap);
      expect(log.maxBytes).toBe(cap);
      expect(log.heldBytes).toBe(cap);
      expect(log.start).toBe(offset - cap);
      expect(log.end).toBe(offset);
      expect(log.since(log.start - 1)).toBe('gone');
      expect(log.piece(log.start - 1)).toBe('gone');
      expect(log.has(log.start - 1)).toBe(false);
      expect(text(log.since(log.start))).toBe(all.slice(log.start));
      expect(text(log.since(offset - 7))).toBe(all.slice(offset - 7));
      expect(walk(log, log.start)).toBe(all.slice(log.start));
    }
    // Appends after the cut stay within the new cap and contiguous with what was kept.
    log.append(offset, bytes('tail'));
    expect(log.heldBytes).toBe(150);
    expect(text(log.since(log.start))).toBe((all + 'tail').slice(-150));
  });

  it('grows again when its cap is raised, without inventing the bytes it dropped', () => {
    const log = createByteLog({ maxBytes: 10 });
    log.append(0, bytes('0123456789abcdef'));
    expect(log.start).toBe(6);
    log.setMaxBytes(1000);
    expect(log.heldBytes).toBe(10);
    expect(log.since(0)).toBe('gone');
    log.append(16, bytes('ghij'));
    expect(text(log.since(6))).toBe('6789abcdefghij');
    expect(log.heldBytes).toBe(14);
  });

  it('does not pin a big chunk\'s whole store once it is cut to a small part of it', () => {
    const log = createByteLog({ maxBytes: 1024 * 1024 });
    const big = new Uint8Array(1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = i % 251;
    log.append(0, big);
    log.setMaxBytes(100_000);
    const piece = log.piece(log.start);
    expect(piece !== 'gone' && piece.length).toBe(100_000);
    expect(piece !== 'gone' && piece.buffer.byteLength).toBe(100_000);
    expect(piece !== 'gone' && piece[0]).toBe((1024 * 1024 - 100_000) % 251);
  });

  it('refuses a cap that is not a positive number', () => {
    const log = createByteLog({ maxBytes: 10 });
    expect(() => log.setMaxBytes(0)).toThrow(/positive/);
    expect(() => log.setMaxBytes(Number.NaN)).toThrow(/positive/);
    expect(log.maxBytes).toBe(10);
  });
});
