import { describe, expect, it } from 'vitest';
import { describeGuard, unattendedRequest } from './unattended.ts';

describe('tether unattended: its words', () => {
  it('reads show, pause, resume and a cap; refuses the rest in words', () => {
    expect(unattendedRequest([])).toEqual({ kind: 'show' });
    expect(unattendedRequest(['pause'])).toEqual({ kind: 'set', change: { paused: true } });
    expect(unattendedRequest(['resume'])).toEqual({ kind: 'set', change: { paused: false } });
    expect(unattendedRequest(['cap', '0'])).toEqual({ kind: 'set', change: { dailyCap: 0 } });
    expect(unattendedRequest(['cap', '12'])).toEqual({ kind: 'set', change: { dailyCap: 12 } });
    expect(unattendedRequest(['cap', '-1'])).toMatchObject({ kind: 'error', error: expect.stringContaining('whole number') });
    expect(unattendedRequest(['cap', '1001'])).toMatchObject({ kind: 'error' });
    expect(unattendedRequest(['cap'])).toMatchObject({ kind: 'error', error: expect.stringContaining('usage') });
    expect(unattendedRequest(['pause', 'now'])).toMatchObject({ kind: 'error' });
    expect(unattendedRequest(['stop'])).toMatchObject({ kind: 'error' });
  });

  it('says the guard as the phone does; a count of another day is today\'s 0', () => {
    const now = Date.parse('2026-05-05T12:00:00Z');
    expect(describeGuard({ paused: false, dailyCap: 20, day: '2026-05-05', runsToday: 3 }, now)).toBe('unattended work running; 3 of 20 runs today (UTC)');
    expect(describeGuard({ paused: true, dailyCap: 20, day: '2026-05-04', runsToday: 3 }, now)).toContain('paused: no schedule runs and no usage-limit continue until resumed; 0 of 20');
  });
});
