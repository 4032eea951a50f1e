// rate-limit.ts: counts failures per key (client IP) in a fixed window. Used for logins, where a
// failure means a wrong token: 10 wrong guesses a minute is plenty for a human with a typo and
// useless for guessing 256-bit tokens.
// Invariant: memory is bounded: expired windows are swept, and past MAX_KEYS the oldest go first.

/** Distinct IPs tracked at once; beyond this the oldest entries are dropped (they are stale). */
const MAX_KEYS = 10_000;

export type FailureLimiter = {
  /** null when the key may try; otherwise the seconds until it may. */
  blockedFor(key: string, now?: number): number | null;
  recordFailure(key: string, now?: number): void;
};

export function createFailureLimiter(options: { maxFailures: number; windowMs: number }): FailureLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  const current = (key: string, now: number) => {
    const w = windows.get(key);
    if (!w || now - w.start >= options.windowMs) return null;
    return w;
  };
  return {
    blockedFor(key, now = Date.now()) {
      const w = current(key, now);
      if (!w || w.count < options.maxFailures) return null;
      return Math.max(1, Math.ceil((w.start + options.windowMs - now) / 1000));
    },
    recordFailure(key, now = Date.now()) {
      const w = current(key, now);
      if (w) {
        w.count += 1;
        return;
      }
      if (windows.size >= MAX_KEYS) {
        for (const [k, v] of windows) {
          if (now - v.start >= options.windowMs || windows.size >= MAX_KEYS) windows.delete(k);
          if (windows.size < MAX_KEYS / 2) break;
        }
      }
      windows.set(key, { start: now, count: 1 });
    },
  };
}
