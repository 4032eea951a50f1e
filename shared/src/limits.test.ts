import { describe, expect, it, vi } from 'vitest';
import { MAX_PAYLOAD_DEPTH, payloadTooDeep } from './limits.ts';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { v: value };
  return value;
};

describe('payload depth', () => {
  it('is too deep past MAX_PAYLOAD_DEPTH levels, without overflowing its own stack at 50,000', () => {
    expect(payloadTooDeep(nested(MAX_PAYLOAD_DEPTH))).toBe(false);
    expect(payloadTooDeep(nested(MAX_PAYLOAD_DEPTH + 1))).toBe(true);
    expect(payloadTooDeep(nested(50_000))).toBe(true);
  });

  it('takes binary data as one leaf, whatever its length (terminal output is not walked byte by byte)', () => {
    const chunk = new Uint8Array(1024 * 1024);
    const values = vi.spyOn(Object, 'values');
    expect(payloadTooDeep({ sessionId: 'x', offset: 0, data: chunk })).toBe(false);
    expect(payloadTooDeep({ data: chunk.buffer })).toBe(false);
    // Its bytes would be its values: the walk never asked for them.
    expect(values.mock.calls.some(([v]) => ArrayBuffer.isView(v) || v instanceof ArrayBuffer)).toBe(false);
    values.mockRestore();
  });
});
