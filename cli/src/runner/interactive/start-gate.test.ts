import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStartGate } from './start-gate.ts';

afterEach(() => {
  vi.useRealTimers();
});

const gate = (waitForSessionStart: boolean, waits?: { sessionStartMs?: number; hookBusyMs?: number }) => {
  const events: string[] = [];
  const start = createStartGate({ waitForSessionStart, ready: () => events.push('ready'), log: (line) => events.push(line), ...(waits ? { waits } : {}) });
  return { start, events, readies: () => events.filter((e) => e === 'ready').length };
};

describe('start gate', () => {
  it('an agent that needs no SessionStart is ready when its input shows', () => {
    const { start, readies } = gate(false);
    expect(readies()).toBe(0);
    start.inputShown(1200);
    expect(readies()).toBe(1);
    start.sessionStarted();
    start.screenRead('busy');
    start.screenRead('ready');
    expect(readies()).toBe(1);
  });

  it('input, SessionStart, the hook busy and gone: ready only then, once', () => {
    const { start, readies } = gate(true);
    start.inputShown(900);
    start.screenRead('ready');
    expect(readies()).toBe(0);
    start.screenRead('busy'); // the hook's row, drawn before its request reached the runner
    start.sessionStarted();
    expect(readies()).toBe(0); // the row is still up: typing now would be lost
    start.screenRead('busy');
    start.screenRead('ready');
    expect(readies()).toBe(1);
    start.sessionStarted(); // /clear, a compaction: SessionStart again
    start.screenRead('busy');
    start.screenRead('ready');
    expect(readies()).toBe(1);
    start.stop();
  });

  it('SessionStart before the hook row is drawn: a ready screen is not enough until the row came and went', () => {
    const { start, readies } = gate(true);
    start.inputShown(900);
    start.sessionStarted();
    start.screenRead('ready');
    expect(readies()).toBe(0);
    start.screenRead('busy');
    start.screenRead('ready');
    expect(readies()).toBe(1);
    start.stop();
  });

  it('a ready screen after the busy row but before SessionStart is not the hook gone', () => {
    const { start, readies } = gate(true);
    start.inputShown(900);
    start.screenRead('busy');
    start.screenRead('ready');
    expect(readies()).toBe(0);
    start.sessionStarted();
    expect(readies()).toBe(0);
    start.screenRead('ready');
    expect(readies()).toBe(1);
    start.stop();
  });

  it('no busy row after SessionStart (an agent set to draw none): ready after its bound, and says so', () => {
    vi.useFakeTimers();
    const { start, events, readies } = gate(true, { hookBusyMs: 3_000 });
    start.inputShown(700);
    start.sessionStarted();
    vi.advanceTimersByTime(2_999);
    expect(readies()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(readies()).toBe(1);
    expect(events.some((e) => e.startsWith('no busy row 3000 ms after SessionStart'))).toBe(true);
  });

  it('no SessionStart at all (hooks off): ready after its bound, and says why', () => {
    vi.useFakeTimers();
    const { start, events, readies } = gate(true, { sessionStartMs: 5_000 });
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
