// cleanups.ts (harness): one cleanup scope per test. useCleanups() registers an afterEach that runs
// every function deferred during the test, last first (so a runner stops before its hub), and
// returns defer(fn) to register them. useFileCleanups() is the same scope for a whole file (or
// describe), run in afterAll, for what its tests share (one hub, one database server).
//
//   const defer = useCleanups();          // at the top of the test file (or a describe)
//   it(…, async () => { const hub = await startHub(); defer(() => hub.stop()); … });
//
// Invariant: after each test the scope is empty again; a cleanup that throws fails the test, after
// the others have run.
import { afterAll, afterEach } from 'vitest';

/** Registers a cleanup for the current test; cleanups run in reverse order in afterEach. */
export type Defer = (cleanup: () => unknown) => void;

export function useCleanups(): Defer {
  return cleanupScope(afterEach);
}

/** The scope of the file (or describe) it is called in: its cleanups run once, in afterAll. */
export function useFileCleanups(): Defer {
  return cleanupScope(afterAll);
}

function cleanupScope(after: (fn: () => Promise<void>) => void): Defer {
  let cleanups: Array<() => unknown> = [];
  after(async () => {
    // Every cleanup runs even when one throws (a leak found by a sandbox must not leave the hub
    // behind it running); the first error fails the test.
    const errors: unknown[] = [];
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    }
    cleanups = [];
    if (errors.length > 0) throw errors[0];
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}
