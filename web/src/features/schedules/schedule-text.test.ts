import { describe, expect, it } from 'vitest';
import { describeTarget, inputTimeOf, localInputTime, previewRuns } from './schedule-text.ts';

const now = Date.parse('2026-05-05T10:00:00Z');

describe('schedule text', () => {
  it('previews the next five runs of a cron, or says why it cannot run', () => {
    expect(previewRuns({ kind: 'cron', expression: '0 9 * * 1-5', timeZone: 'UTC' }, now)).toEqual({
      runs: ['2026-05-06T09:00:00Z', '2026-05-07T09:00:00Z', '2026-05-08T09:00:00Z', '2026-05-11T09:00:00Z', '2026-05-12T09:00:00Z'].map(Date.parse),
    });
    expect(previewRuns({ kind: 'cron', expression: '0 9 30 2 *', timeZone: 'UTC' }, now)).toEqual({ error: 'it never fires: no day 30 in feb' });
    expect(previewRuns({ kind: 'once', at: now - 1 }, now)).toMatchObject({ error: expect.stringContaining('in the past') });
  });

  it('reads and writes the browser-local datetime field', () => {
    const at = new Date(2026, 4, 5, 9, 30).getTime();
    expect(inputTimeOf(at)).toBe('2026-05-05T09:30');
    expect(localInputTime('2026-05-05T09:30')).toBe(at);
    expect(localInputTime('')).toBeNull();
  });

  it('names a new session target by its folder and machine', () => {
    const target = { kind: 'new' as const, machineId: '11111111-1111-4111-8111-111111111111', cwd: '/src/app', agent: 'claude' as const, launchKind: 'headless' as const };
    expect(describeTarget(target, { sessions: [], machines: [] })).toBe('New headless session in /src/app on an unknown machine');
  });
});
