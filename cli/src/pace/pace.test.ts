import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPace } from './pace.ts';
import { collectWhileBusy } from './gc-timer.ts';

describe('pace', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = () => createPace({ quietAfterMs: 1_000, quietPollMs: 5_000, now: () => Date.now() });

  it('polls at its own interval while stirred, slows once quiet, and is back at once after a stir', () => {
    const pace = make();
    const ticks: number[] = [];
    const start = Date.now();
    const stop = pace.poll({ everyMs: 100, tick: () => ticks.push(Date.now() - start) });

    // Active for the first second: every 100 ms.
    vi.advanceTimersByTime(1_000);
    expect(ticks).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000]);
    expect(pace.quiet()).toBe(true);

    // Quiet: the next look is 5 s after the last one.
    vi.advanceTimersByTime(4_900);
    expect(ticks.length).toBe(10);
    vi.advanceTimersByTime(100);
    expect(ticks.at(-1)).toBe(6_000);

    // A stir mid-sleep: the poll looks again one interval later, not at the end of the long wait.
    vi.advanceTimersByTime(2_000);
    pace.stir();
    expect(pace.quiet()).toBe(false);
    vi.advanceTimersByTime(100);
    expect(ticks.at(-1)).toBe(8_100);
    vi.advanceTimersByTime(300);
    expect(ticks.slice(-3)).toEqual([8_200, 8_300, 8_400]);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(ticks.at(-1)).toBe(8_400);
  });

  it('a stopped poll is not re-armed by a stir, and stirring while active changes nothing', () => {
    const pace = make();
    let a = 0;
    let b = 0;
    const stopA = pace.poll({ everyMs: 200, tick: () => a++ });
    pace.poll({ everyMs: 200, tick: () => b++ });
    vi.advanceTimersByTime(2_000); // both asleep for the quiet wait now
    const [a0, b0] = [a, b];
    stopA();
    pace.stir();
    vi.advanceTimersByTime(200);
    expect(a).toBe(a0);
    expect(b).toBe(b0 + 1);
    pace.stir(); // not quiet: no extra tick
    vi.advanceTimersByTime(100);
    expect(b).toBe(b0 + 1);
  });

  it('a poll slower than the quiet wait keeps its own interval', () => {
    const pace = make();
    let n = 0;
    pace.poll({ everyMs: 8_000, tick: () => n++ });
    vi.advanceTimersByTime(16_000);
    expect(n).toBe(2);
  });

  it('with no quiet wait (the default), a quiet poll sleeps with no timer until a stir', () => {
    const pace = createPace({ quietAfterMs: 1_000, now: () => Date.now() });
    let n = 0;
    pace.poll({ everyMs: 250, tick: () => n++ });
    vi.advanceTimersByTime(1_000);
    expect(n).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(n).toBe(4);
    pace.stir();
    vi.advanceTimersByTime(250);
    expect(n).toBe(5);
  });

  it('is never quiet while a turn runs: its polls keep their interval with no stir, and sleep once it is over', () => {
    const pace = createPace({ quietAfterMs: 1_000, now: () => Date.now() });
    let turn = true;
    pace.awakeWhile(() => turn);
    let n = 0;
    pace.poll({ everyMs: 250, tick: () => n++ });
    vi.advanceTimersByTime(10_000);
    expect(pace.quiet()).toBe(false);
    expect(n).toBe(40);
    turn = false;
    expect(pace.quiet()).toBe(true);
    vi.advanceTimersByTime(250);
    expect(n).toBe(41);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('collectWhileBusy', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('collects at its interval while the pace is stirred, not at all once quiet (no timer), and stops', () => {
    const pace = createPace({ quietAfterMs: 1_000, now: () => Date.now() });
    let collections = 0;
    const stop = collectWhileBusy({ poll: pace.poll, everyMs: 300, gc: () => void (collections += 1) });
    vi.advanceTimersByTime(900);
    expect(collections).toBe(3);
    // Quiet from 1 s on: one more look at 1.2 s finds it quiet and sleeps with no timer.
    vi.advanceTimersByTime(60_000);
    expect(collections).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    pace.stir();
    vi.advanceTimersByTime(300);
    expect(collections).toBe(5);
    stop();
    vi.advanceTimersByTime(10_000);
    expect(collections).toBe(5);
  });
});
