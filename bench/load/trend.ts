// trend.ts: how a sampled quantity (RSS, fds) moves over a soak. A collected heap's RSS is a sawtooth
// (allocation climbs, a collection drops it) whose teeth are ~5 MB and minutes long in a runner, so
// a least-squares line over 40 minutes swings by several MB/h with where the last tooth was cut
// off. The floor (each window's lowest sample) is what is still held after the collections: its
// slope is the growth that stays.

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

/** The lowest (or highest) point of each whole window of `width` x-units, starting at the first
 *  point's x. A last window cut short is dropped: its extreme need not be a tooth's. The width must be
 *  at least a tooth (a collection cycle), or a window can miss its tooth's base. */
export function windowExtremes(points: Array<[number, number]>, options: { width: number; pick: 'min' | 'max' }): Array<[number, number]> {
  if (points.length === 0 || !(options.width > 0)) return [];
  const x0 = points[0]![0];
  const lastX = points.at(-1)![0];
  const windows = new Map<number, [number, number]>();
  for (const point of points) {
    const index = Math.floor((point[0] - x0) / options.width);
    const kept = windows.get(index);
    const better = !kept || (options.pick === 'min' ? point[1] < kept[1] : point[1] > kept[1]);
    if (better) windows.set(index, point);
  }
  return [...windows.entries()]
    .filter(([index]) => lastX >= x0 + (index + 1) * options.width)
    .sort((a, b) => a[0] - b[0])
    .map(([, point]) => point);
}
