// heap-probe.ts: a bench aid that tells a JS holder from allocator retention in a long-lived process
// (the runner, `tether attach`). When (and only when) TETHER_BENCH_HEAP names a file, every
// TETHER_BENCH_HEAP_S seconds (default 60) it appends one JSON line: RSS, mimalloc's committed and
// in-use bytes, and JavaScriptCore's heap size, object count and the object types that are most
// numerous, once as found and once after a full collection (what is still reachable). A count that
// climbs turn after turn after a full collection is something JS holds on to; RSS climbing with the
// heap flat is native or allocator memory. Unset, no timer exists and nothing is read: an idle
// runner's wake-ups are a measured goal. The line holds type names and sizes, never contents.
import { appendFileSync, readFileSync } from 'node:fs';

export const BENCH_HEAP_ENV = 'TETHER_BENCH_HEAP';
export const BENCH_HEAP_INTERVAL_ENV = 'TETHER_BENCH_HEAP_S';
/** Object types per line: enough to see the usual suspects (strings, arrays, closures, maps). */
const TOP_TYPES = 40;

type Jsc = typeof import('bun:jsc');

function rssBytes(): number {
  try {
    const pages = Number(readFileSync('/proc/self/statm', 'utf8').split(' ')[1]);
    return pages * 4096;
  } catch {
    return process.memoryUsage().rss;
  }
}

/** Anonymous (heap, JIT, allocator) vs file-backed (the Bun binary's pages) resident memory, in bytes. */
function rssParts(): { rssAnon: number; rssFile: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile') };
  } catch {
    return { rssAnon: Number.NaN, rssFile: Number.NaN };
  }
}

function topTypes(counts: Record<string, number>, limit: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit),
  );
}

/** One sample: the heap as found, then after a full (synchronous) collection. */
export function heapSample(jsc: Jsc, options: { label: string; topTypes?: number }): Record<string, unknown> {
  const before = jsc.heapStats();
  const rssBefore = rssBytes();
  Bun.gc(true);
  const after = jsc.heapStats();
  const mimalloc = jsc.memoryUsage();
  return {
    label: options.label,
    t: Date.now(),
    rss: rssBefore,
    rssAfterGc: rssBytes(),
    ...rssParts(),
    mimallocCurrent: mimalloc.current,
    mimallocCommit: mimalloc.currentCommit,
    heapSize: before.heapSize,
    heapSizeAfterGc: after.heapSize,
    heapCapacityAfterGc: after.heapCapacity,
    extraMemoryAfterGc: after.extraMemorySize,
    objectsAfterGc: after.objectCount,
    protectedAfterGc: after.protectedObjectCount,
    types: topTypes(after.objectTypeCounts, options.topTypes ?? TOP_TYPES),
  };
}

/** Starts the probe if the bench asked for it; returns a stop function (a no-op when unset). */
export function startHeapProbe(options: { label: string; env?: NodeJS.ProcessEnv }): () => void {
  const env = options.env ?? process.env;
  const file = env[BENCH_HEAP_ENV];
  if (!file) return () => {};
  const seconds = Number(env[BENCH_HEAP_INTERVAL_ENV] ?? 60);
  const intervalMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;
  let jsc: Jsc | null = null;
  const probe = async () => {
    try {
      jsc ??= await import('bun:jsc');
      appendFileSync(file, `${JSON.stringify(heapSample(jsc, { label: options.label }))}\n`);
    } catch {
      // a bench aid: never let it disturb the session
    }
  };
  const timer = setInterval(probe, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
