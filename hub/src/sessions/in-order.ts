// in-order.ts: steps that share a key run one at a time, in call order. The store is async, so a
// check-then-write ("end it unless it already ended", "register it as starting unless the runner
// registered first", "offline unless it came back") would otherwise interleave with the same kind
// of step from another socket and undo it.
// Invariant: different keys never wait on each other; a failed step does not block the next; a key
// is forgotten once nothing waits behind it (the map does not grow).
import type { Namespace } from '@tether/shared';

export type InOrder = <T>(key: string, step: () => Promise<T>) => Promise<T>;

export function createInOrder(): InOrder {
  const tails = new Map<string, Promise<unknown>>();
  return (key, step) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const result = previous.then(step, step);
    const tail = result.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  };
}

const sessionSteps = createInOrder();

/** One session's lifecycle steps (register, end, end on behalf of a dead runner) in this hub. */
export function inSessionOrder<T>(namespace: Namespace, sessionId: string, step: () => Promise<T>): Promise<T> {
  return sessionSteps(`${namespace}\u0000${sessionId}`, step);
}
