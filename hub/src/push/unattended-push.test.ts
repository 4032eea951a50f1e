// unattended-push.test.ts: what a push says of an unattended run, sent or stopped by the guard.
import { describe, expect, it } from 'vitest';
import { guardStopText, type Schedule, type Session } from '@tether/shared';
import { describeLimitContinuedPush, describeScheduleRunPush } from './notifier.ts';

const session = { id: 's1', title: 'fix the build', cwd: '/work/app', agent: 'claude', status: 'idle' } as unknown as Session;
const schedule = { id: 'sc1', prompt: 'run the tests' } as unknown as Schedule;

describe('pushes of unattended runs', () => {
  it('a schedule run the guard stopped says so, with the reason', () => {
    const push = describeScheduleRunPush(schedule, { dueAt: 0, at: 0, outcome: 'stopped', missed: false, sessionId: 's1', detail: guardStopText('cap', 5) });
    expect(push).toMatchObject({ title: 'Scheduled prompt stopped by the unattended guard', kind: 'schedule', url: '/sessions/s1' });
    expect(push.body).toContain('the daily cap of 5 unattended runs was reached');
  });

  it('a limit continue, sent or held, replaces the reset notice (same tag)', () => {
    expect(describeLimitContinuedPush(session, { prompt: 'continue', held: null })).toMatchObject({ title: 'fix the build: continued after the usage limit', body: 'Sent “continue”.', tag: 'limit:s1' });
    expect(describeLimitContinuedPush(session, { prompt: 'continue', held: { text: guardStopText('paused', 5) } })).toMatchObject({
      title: 'fix the build: not continued after the usage limit',
      body: 'not run: everything unattended is paused',
      tag: 'limit:s1',
    });
  });
});
