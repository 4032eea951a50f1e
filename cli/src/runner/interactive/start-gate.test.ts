import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStartGate } from './start-gate.ts';

afterEach(() => {
  vi.useRealTimers();
});

const gate = (waitForSessionStart: boolean, waits?: { sessionStartMs?: number; hookBusyMs?: number; hearingMs?: number }) => {
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

  /** A gate that waits for SessionStart, its input shown, then `steps` in order: an event, or the
   *  number of times it must have said ready by then. */
  const play = (steps: Array<'session' | 'busy' | 'ready' | number>) => {
    const { start, readies } = gate(true);
    start.inputShown(900);
    for (const [i, step] of steps.entries()) {
      if (typeof step === 'number') expect(readies(), `after step ${i}`).toBe(step);
      else if (step === 'session') start.sessionStarted();
      else start.screenRead(step);
    }
    start.stop();
  };

  it('input, SessionStart, the hook busy and gone: ready only then, once', () => {
    play([
      'ready',
      0,
      'busy', // the hook's row, drawn before its request reached the runner
      'session',
      0, // the row is still up: typing now would be lost
      'busy',
      'ready',
      1,
      'session', // /clear, a compaction: SessionStart again
      'busy',
      'ready',
      1,
    ]);
  });

  it('SessionStart before the hook row is drawn: a ready screen is not enough until the row came and went', () => {
    play(['session', 'ready', 0, 'busy', 'ready', 1]);
  });

  it('a ready screen after the busy row but before SessionStart is not the hook gone', () => {
    play(['busy', 'ready', 0, 'session', 0, 'ready', 1]);
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

  it('an agent heard through a channel of its own (opencode) is ready once its input shows and that channel is open', async () => {
    const { start, readies } = gate(false);
    let open: () => void = () => {};
    start.hearing(new Promise<void>((resolve) => (open = resolve)));
    start.inputShown(800);
    expect(readies()).toBe(0);
    open();
    await Promise.resolve();
    expect(readies()).toBe(1);
  });

  it('a channel that never opens holds ready only for its bound, logged', () => {
    vi.useFakeTimers();
    const { start, events, readies } = gate(false, { hearingMs: 5_000 });
    start.hearing(new Promise<void>(() => {}));
    start.inputShown(800);
    vi.advanceTimersByTime(4_999);
    expect(readies()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(readies()).toBe(1);
    expect(events.some((e) => /own channel not open 5000 ms after the launch/.test(e))).toBe(true);
  });
});
