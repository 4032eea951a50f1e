import { describe, expect, it } from 'vitest';
import { slope, troughs } from './trend.ts';

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

  it('the troughs of a sawtooth give its base slope where the least-squares line depends on the cut', () => {
    // 0.02 MB a minute is 1.2 MB/h; 40 minutes, cut at each of four places in a tooth.
    const phases = [0, 2, 4, 6];
    for (const phase of phases) {
      const points = sawtooth({ rise: 0.02, until: 40, phase });
      expect(slope(troughs(points, { minDrop: 2 })) * 60).toBeCloseTo(1.2, 5);
    }
    // The least-squares line over the same points reads anywhere from under half to twice that.
    const cuts = phases.map((phase) => slope(sawtooth({ rise: 0.02, until: 40, phase })) * 60);
    expect(Math.min(...cuts)).toBeLessThan(0.6);
    expect(Math.max(...cuts)).toBeGreaterThan(2.3);
  });

  it('troughs are the bottoms of the falls, so their slope is what stays however long the teeth', () => {
    // Teeth of 7, 10 and 17 minutes (as a runner's full collections came) on a floor rising 1 MB/h.
    const points: Array<[number, number]> = [];
    const falls = [7, 17, 34, 41, 58];
    let last = 0;
    for (let x = 0; x <= 60; x += 0.5) {
      if (falls.includes(x)) last = x;
      points.push([x, 80 + x / 60 + (x - last) * 0.5]);
    }
    const found = troughs(points, { minDrop: 2 });
    expect(found.map(([x]) => x)).toEqual([7, 17, 34, 41, 58]);
    expect(slope(found) * 60).toBeCloseTo(1, 5);
    // A fall spread over two samples ends at its lower one; small wiggles are no falls.
    expect(troughs([[0, 90], [1, 86], [2, 84], [3, 85], [4, 84.5]], { minDrop: 2 })).toEqual([[2, 84]]);
  });
});
