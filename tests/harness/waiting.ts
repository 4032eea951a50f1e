// waiting.ts (harness): waiting for a fact another process makes true. `until` asks again every
// 100 ms, for facts nothing announces (a connection count nginx holds, a block the hub records);
// `createWaits` re-checks its waits whenever the thing they watch says it changed (a screen drawn,
// output read, a socket event), for facts that are announced.

/** Resolves with how many ms `check` took to hold; throws naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(100);
  }
  return Date.now() - started;
}

export type WaitOptions<T> = {
  /** The awaited value, or null, undefined or false while it is not there yet. */
  probe: () => T | null | undefined | false;
  timeoutMs: number;
  /** The error's message once `timeoutMs` passed (read then, so it can show the state it timed out in). */
  timedOut: () => string;
  /** A message once waiting is hopeless (the process exited), checked after `probe`. */
  failed?: () => string | null;
};

/** Waits on one changing thing: call `changed()` after each change; `waitFor` resolves with the first
 *  value its probe gives (checked at once, then on every change). */
export function createWaits() {
  const checks = new Set<() => void>();
  const changed = () => {
    for (const check of [...checks]) check();
  };
  const waitFor = <T>(o: WaitOptions<T>) =>
    new Promise<T>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        checks.delete(check);
      };
      const check = () => {
        const value = o.probe();
        if (value !== null && value !== undefined && value !== false) {
          finish();
          resolve(value);
          return;
        }
        const failure = o.failed?.();
        if (failure) {
          finish();
          reject(new Error(failure));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(o.timedOut()));
      }, o.timeoutMs);
      checks.add(check);
      check();
    });
  return { changed, waitFor };
}
