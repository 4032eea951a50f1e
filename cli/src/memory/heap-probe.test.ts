// heap-probe.test.ts: the bench-only heap probe writes nothing and arms no timer unless asked, and a
// sample names sizes and object types (after a full collection), never contents.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BENCH_HEAP_ENV, heapSample, startHeapProbe } from './heap-probe.ts';

afterEach(() => vi.useRealTimers());

describe('heap probe', () => {
  it('unset: no timer and no file', () => {
    vi.useFakeTimers();
    const stop = startHeapProbe({ label: 'runner', env: {} });
    expect(vi.getTimerCount()).toBe(0);
    stop();
  });

  it('a sample holds sizes and type counts after a full collection', async () => {
    const jsc = await import('bun:jsc');
    const sample = heapSample(jsc, { label: 'runner', topTypes: 5 });
    expect(sample).toMatchObject({ label: 'runner', heapSizeAfterGc: expect.any(Number), objectsAfterGc: expect.any(Number), rss: expect.any(Number) });
    expect(Object.keys(sample.types as Record<string, number>)).toHaveLength(5);
  });

  it('set: one JSON line per interval in the named file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-heap-probe-'));
    const file = join(dir, 'heap.jsonl');
    vi.useFakeTimers();
    const stop = startHeapProbe({ label: 'viewer', env: { [BENCH_HEAP_ENV]: file, TETHER_BENCH_HEAP_S: '1' } });
    await vi.advanceTimersByTimeAsync(1_000);
    stop();
    vi.useRealTimers();
    await vi.waitFor(() => expect(existsSync(file)).toBe(true));
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ label: 'viewer' });
    rmSync(dir, { recursive: true, force: true });
  });
});
