import { describe, expect, it } from 'vitest';
import { createSizeOwnership } from './size-owner.ts';

const s = (cols: number, rows: number) => ({ cols, rows });

describe('size ownership', () => {
  it('gives the desk the size while it is attached, whatever viewers do', () => {
    const own = createSizeOwnership();
    expect(own.deskAttached(s(120, 40))).toBe(true);
    expect(own.takeControl('phone', s(50, 30))).toBe(false);
    expect(own.size()).toEqual(s(120, 40));
    expect(own.owner()).toEqual({ kind: 'desk' });
    expect(own.isOwner('phone')).toBe(false);
    expect(own.deskResized(s(100, 30))).toBe(true);
    expect(own.size()).toEqual(s(100, 30));
  });

  it('passes to the last viewer that took control, and back to the previous one when it leaves', () => {
    const own = createSizeOwnership();
    expect(own.takeControl('phone', s(50, 30))).toBe(true);
    expect(own.takeControl('laptop', s(160, 45))).toBe(true);
    expect(own.owner()).toEqual({ kind: 'viewer', viewerId: 'laptop' });
    expect(own.viewerResized('phone', s(40, 20))).toBe(false);
    expect(own.viewerLeft('laptop')).toBe(true);
    expect(own.size()).toEqual(s(40, 20));
    expect(own.isOwner('phone')).toBe(true);
  });

  it('returns to the viewers when the desk detaches, and to nobody when all leave', () => {
    const own = createSizeOwnership();
    own.takeControl('phone', s(50, 30));
    own.deskAttached(s(120, 40));
    expect(own.deskDetached()).toBe(true);
    expect(own.size()).toEqual(s(50, 30));
    expect(own.viewerLeft('phone')).toBe(false);
    expect(own.owner()).toEqual({ kind: 'none' });
    expect(own.size()).toBeNull();
  });

  it('reports no change when a retake keeps the same size', () => {
    const own = createSizeOwnership();
    own.takeControl('phone', s(50, 30));
    expect(own.takeControl('phone', s(50, 30))).toBe(false);
  });
});
