import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStartGate } from './start-gate.ts';

afterEach(() => {
  vi.useRealTimers();
});

const gate = (waitForSessionStart: boolean, waitMs?: number) => {
  const events: string[] = [];
  const start = createStartGate({ waitForSessionStart, ready: () => events.push('ready'), log: (line) => events.push(line), ...(waitMs ? { waitMs } : {}) });
  return { start, events, readies: () => events.filter((e) => e === 'ready').length };
};

describe('start gate', () => {
  it('an agent that needs no SessionStart is ready when its input shows', () => {
    const { start, readies } = gate(false);
    expect(readies()).toBe(0);
    start.inputShown(1200);
    expect(readies()).toBe(1);
    start.sessionStarted();
    expect(readies()).toBe(1);
  });

  it('an agent that takes input after SessionStart is ready only with both, in either order, once', () => {
    const a = gate(true);
    a.start.inputShown(900);
    expect(a.readies()).toBe(0);
    a.start.sessionStarted();
    expect(a.readies()).toBe(1);
    a.start.sessionStarted(); // /clear, a compaction: SessionStart again
    expect(a.readies()).toBe(1);
    a.start.stop();

    const b = gate(true);
    b.start.sessionStarted();
    expect(b.readies()).toBe(0);
    b.start.inputShown(900);
    expect(b.readies()).toBe(1);
    b.start.stop();
  });

  it('without a SessionStart (hooks off) it is ready after the bound, and says why', () => {
    vi.useFakeTimers();
    const { start, events, readies } = gate(true, 5_000);
    start.inputShown(700);
    vi.advanceTimersByTime(4_999);
    expect(readies()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(readies()).toBe(1);
    expect(events.some((e) => e.startsWith('no SessionStart 5000 ms'))).toBe(true);
    start.sessionStarted();
    expect(readies()).toBe(1);
  });
});
