// clock.ts: the time schedules read, and the timer that wakes them: the system's in a hub, a hand-
// moved one in tests (so a test of "runs twice" does not wait ten minutes).
export type Clock = {
  now(): number;
  /** Calls `tick` every `ms` until the returned stop is called (a hand-moved clock awaits what it returns). */
  every(ms: number, tick: () => unknown): () => void;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, tick) {
    const timer = setInterval(() => void tick(), ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};
