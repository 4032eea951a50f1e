import { describe, expect, it } from 'vitest';
import { parseAt, parseDuration } from './schedule.ts';

describe('tether schedule: times and durations', () => {
  it('reads durations and their sums', () => {
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('2d')).toBe(172_800_000);
    expect(parseDuration('20')).toBeNull();
    expect(parseDuration('soon')).toBeNull();
  });

  it('reads a time today and a date-time', () => {
    const now = new Date(2026, 4, 5, 8, 0).getTime();
    expect(parseAt('09:30', now)).toBe(new Date(2026, 4, 5, 9, 30).getTime());
    expect(parseAt('25:00', now)).toBeNull();
    expect(parseAt('2026-05-06T09:30:00Z', now)).toBe(Date.UTC(2026, 4, 6, 9, 30));
    expect(parseAt('next tuesday', now)).toBeNull();
  });
});
