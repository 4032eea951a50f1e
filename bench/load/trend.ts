// trend.ts: how a sampled quantity (RSS, fds) moves over a soak. A collected heap's RSS is a sawtooth
// (allocation climbs, a full collection drops it) whose teeth are 4–6 MB and 7–17 minutes long in a
// runner, so a least-squares line over an hour swings by several MB/h with where the last tooth was
// cut off. What is still held after the collections is the bottom of each fall (`troughs`); the
// lowest sample of fixed windows missed it whenever a tooth outlasted its window.

/** Least-squares slope of y over x. */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

/** The first sample after each fall of more than `minDrop` (a full collection's release), lowered to
 *  the next sample when that is lower still (a fall spread over two samples). */
export function troughs(points: Array<[number, number]>, options: { minDrop: number }): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (let i = 1; i < points.length; i += 1) {
    if (points[i - 1]![1] - points[i]![1] <= options.minDrop) continue;
    const next = points[i + 1];
    found.push(next && next[1] < points[i]![1] ? next : points[i]!);
  }
  return found;
}
