// first-answer.ts: a request to a person can be answered from several places at once (the phone, the
// desk's own dialog, a cancel, the session ending); the first one decides and every later one is
// dropped, so an owner awaits one outcome and never has to ask who came first.

export type FirstAnswer<T> = {
  /** The first outcome given. */
  readonly settled: Promise<T>;
  /** Gives an outcome; true when it was the first (the one `settled` carries). */
  settle(outcome: T): boolean;
};

export function firstAnswer<T>(): FirstAnswer<T> {
  const { promise, resolve } = Promise.withResolvers<T>();
  let done = false;
  return {
    settled: promise,
    settle(outcome) {
      if (done) return false;
      done = true;
      resolve(outcome);
      return true;
    },
  };
}
