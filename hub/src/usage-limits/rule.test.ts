import { describe, expect, it } from 'vitest';
import type { Session } from '@tether/shared';
import { planFor, stillStopped } from './rule.ts';

const timing = { marginMs: 1_000, agentGraceMs: 60_000 };
const ON = { on: true, prompt: 'continue' };
const OFF = { on: false, prompt: 'continue' };
const base = { id: 's', status: 'idle', limitContinue: null, limit: { resetsAt: 100_000, agentResumes: false, continued: false } } as unknown as Session;
const at = (patch: Partial<Session>): Session => ({ ...base, ...patch }) as Session;

describe('the continue-at-reset rule', () => {
  it('notifies at the reset; continues after the margin only when chosen (the session, else the default)', () => {
    expect(planFor(base, { timing, byDefault: OFF })).toEqual({ resetsAt: 100_000, notifyAt: 100_000, continueAt: null, prompt: 'continue' });
    expect(planFor(base, { timing, byDefault: ON })?.continueAt).toBe(101_000);
    expect(planFor(at({ limitContinue: { on: true, prompt: 'go on please' } }), { timing, byDefault: OFF })).toMatchObject({ continueAt: 101_000, prompt: 'go on please' });
    expect(planFor(at({ limitContinue: { on: false, prompt: 'continue' } }), { timing, byDefault: ON })?.continueAt).toBeNull();
  });

  it("a session with no choice takes the namespace's default with its prompt; its own choice wins either way", () => {
    const byDefault = { on: true, prompt: 'pick up where you left off' };
    expect(planFor(base, { timing, byDefault })).toMatchObject({ continueAt: 101_000, prompt: 'pick up where you left off' });
    expect(planFor(at({ limitContinue: { on: true, prompt: 'mine' } }), { timing, byDefault: { on: false, prompt: 'theirs' } })).toMatchObject({ continueAt: 101_000, prompt: 'mine' });
    expect(planFor(at({ limitContinue: { on: false, prompt: 'mine' } }), { timing, byDefault })?.continueAt).toBeNull();
  });

  it('an agent that waits it out itself gets the grace first; a reset already continued, an ended session: no continue', () => {
    expect(planFor(at({ limit: { resetsAt: 100_000, agentResumes: true, continued: false, held: null } }), { timing, byDefault: ON })?.continueAt).toBe(160_000);
    expect(planFor(at({ limit: { resetsAt: 100_000, agentResumes: false, continued: true, held: null } }), { timing, byDefault: ON })?.continueAt).toBeNull();
    expect(planFor(at({ status: 'ended' }), { timing, byDefault: ON })).toMatchObject({ notifyAt: 100_000, continueAt: null });
    expect(planFor(at({ limit: null }), { timing, byDefault: ON })).toBeNull();
  });

  it('continues only a session still stopped at that very limit and idle', () => {
    expect(stillStopped(base, 100_000)).toBe(true);
    expect(stillStopped(base, 99_000)).toBe(false);
    expect(stillStopped(at({ status: 'thinking' }), 100_000)).toBe(false);
    expect(stillStopped(at({ limit: null }), 100_000)).toBe(false);
    expect(stillStopped(null, 100_000)).toBe(false);
  });
});
