// polling.ts (harness): waiting for a fact another process makes true, by asking again every 100 ms.
// For facts nothing announces (a connection count nginx holds, a block the hub records).

/** Resolves with how many ms `check` took to hold; throws naming `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await Bun.sleep(100);
  }
  return Date.now() - started;
}
