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

  it('reads the continue default: on or off, a prompt trimmed and checked as the hub does', () => {
    expect(unattendedRequest(['continue', 'on'])).toEqual({ kind: 'set', change: { limitContinue: { on: true } } });
    expect(unattendedRequest(['continue', 'off'], { prompt: ' go on ' })).toEqual({ kind: 'set', change: { limitContinue: { on: false, prompt: 'go on' } } });
    expect(unattendedRequest(['continue', 'on'], { prompt: '   ' })).toMatchObject({ kind: 'error', error: expect.stringContaining('1 to 2000') });
    expect(unattendedRequest(['continue', 'on'], { prompt: 'x'.repeat(2001) })).toMatchObject({ kind: 'error' });
    expect(unattendedRequest(['continue'])).toMatchObject({ kind: 'error', error: expect.stringContaining('continue on|off') });
    expect(unattendedRequest(['continue', 'yes'])).toMatchObject({ kind: 'error' });
    expect(unattendedRequest(['continue', 'on', 'now'])).toMatchObject({ kind: 'error' });
    expect(unattendedRequest(['pause'], { prompt: 'go' })).toMatchObject({ kind: 'error', error: expect.stringContaining('--prompt goes with') });
  });

  it('says the guard as the phone does; a count of another day is today\'s 0', () => {
    const now = Date.parse('2026-05-05T12:00:00Z');
    const off = { on: false, prompt: 'continue' };
    expect(describeGuard({ paused: false, dailyCap: 20, day: '2026-05-05', runsToday: 3, limitContinue: off }, now)).toBe(
      "unattended work running; 3 of 20 runs today (UTC); sessions with no choice of their own are not continued at a usage limit's reset",
    );
    expect(describeGuard({ paused: true, dailyCap: 20, day: '2026-05-04', runsToday: 3, limitContinue: off }, now)).toContain('paused: no schedule runs and no usage-limit continue until resumed; 0 of 20');
    expect(describeGuard({ paused: false, dailyCap: 20, day: '2026-05-05', runsToday: 0, limitContinue: { on: true, prompt: 'go on' } }, now)).toContain('are continued at a usage limit\'s reset with “go on”');
  });
});
