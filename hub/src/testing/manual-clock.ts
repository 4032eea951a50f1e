// manual-clock.ts: a schedules clock (schedules/clock.ts) that moves only when a test says: `advance`
// moves it on and runs every tick once, awaited, so "due in ten minutes" takes no ten minutes.
// Shared by several hubs, it runs their ticks together: they race for a run as real timers would.
import type { Clock } from '../schedules/clock.ts';

export type ManualClock = Clock & {
  /** Moves the time on by `ms` and runs the ticks (awaited). */
  advance(ms: number): Promise<void>;
  /** Sets the time and runs the ticks (awaited). */
  set(at: number): Promise<void>;
};

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  const ticks = new Set<() => unknown>();
  // Every hub's tick at once, as several hubs' timers would race for the same due run.
  const run = async () => {
    await Promise.all([...ticks].map((tick) => tick()));
  };
  return {
    now: () => now,
    every(_ms, tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    async advance(ms) {
      now += ms;
      await run();
    },
    async set(at) {
      now = at;
      await run();
    },
  };
}
