import { describe, expect, it } from 'vitest';
import { createByteLog } from './byte-log.ts';

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array | 'gone') => (b === 'gone' ? 'gone' : new TextDecoder().decode(b));

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
    let at = 0;
    let walked = '';
    for (let p = log.piece(at); p !== 'gone' && p.length > 0; p = log.piece(at)) {
      walked += text(p);
      at += p.length;
    }
    expect(walked).toBe(text(log.since(0)));
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

  it('keeps exact bytes when many small appends share blocks, across trims and big appends', () => {
    const log = createByteLog({ maxBytes: 50_000 });
    let all = '';
    let offset = 0;
    for (let i = 0; i < 3000; i++) {
      const piece = i % 500 === 499 ? 'B'.repeat(6000) : `${i}`.padEnd(37, '.') + '\r\n';
      log.append(offset, bytes(piece));
      offset += piece.length;
      all += piece;
      if (i % 97 === 0) {
        expect(log.end).toBe(offset);
        expect(text(log.since(log.start))).toBe(all.slice(log.start));
      }
    }
    expect(log.heldBytes).toBe(50_000);
    expect(log.since(log.start - 1)).toBe('gone');
    let at = log.start;
    let walked = '';
    for (let p = log.piece(at); p !== 'gone' && p.length > 0; p = log.piece(at)) {
      walked += text(p);
      at += p.length;
    }
    expect(walked).toBe(all.slice(log.start));
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
});
