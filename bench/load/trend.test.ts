import { describe, expect, it } from 'vitest';
import { slope, windowExtremes } from './trend.ts';

/** A runner's RSS as the soaks saw it: a 5 MB tooth every 8 minutes, sampled each half minute, on a
 *  floor rising `rise` MB a minute. */
function sawtooth(options: { rise: number; until: number; phase: number }): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  for (let x = 0; x <= options.until; x += 0.5) points.push([x, options.rise * x + (((x + options.phase) % 8) / 8) * 5]);
  return points;
}

describe('trend', () => {
  it('slope is the least-squares line', () => {
    expect(slope([[0, 1], [1, 3], [2, 5]])).toBeCloseTo(2);
    expect(slope([[0, 1]])).toBeNaN();
    expect(slope([[1, 1], [1, 2]])).toBeNaN();
  });

  it('the floor of a sawtooth gives its base slope where the least-squares line depends on the cut', () => {
    // 0.02 MB a minute is 1.2 MB/h; 40 minutes, cut at each of four places in a tooth.
    const phases = [0, 2, 4, 6];
    for (const phase of phases) {
      const points = sawtooth({ rise: 0.02, until: 40, phase });
      expect(slope(windowExtremes(points, { width: 8, pick: 'min' })) * 60).toBeCloseTo(1.2, 5);
    }
    // The least-squares line over the same points reads anywhere from under half to twice that.
    const cuts = phases.map((phase) => slope(sawtooth({ rise: 0.02, until: 40, phase })) * 60);
    expect(Math.min(...cuts)).toBeLessThan(0.6);
    expect(Math.max(...cuts)).toBeGreaterThan(2.3);
  });

  it('drops a last window cut short and keeps the extreme of each', () => {
    const points: Array<[number, number]> = [[0, 5], [1, 3], [2, 4], [3, 9], [4, 1], [5, 2], [6, 0]];
    expect(windowExtremes(points, { width: 2, pick: 'min' })).toEqual([[1, 3], [2, 4], [4, 1]]);
    expect(windowExtremes(points, { width: 4, pick: 'max' })).toEqual([[3, 9]]);
    expect(windowExtremes(points, { width: 3, pick: 'max' })).toEqual([[0, 5], [3, 9]]);
    expect(windowExtremes([], { width: 2, pick: 'min' })).toEqual([]);
  });
});
