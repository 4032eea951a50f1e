// test-agent.fixture.ts: an in-memory ACP agent end for the room's tests: it reads what tether writes (one
// JSON-RPC message a line) and answers through a stdout stream tether reads, as a child's pipes would.
type Json = Record<string, any>;

export type TestAgent = ReturnType<typeof testAgent>;

export function testAgent() {
  const written: Json[] = [];
  const waiters: Array<{ test: (m: Json) => boolean; resolve: (m: Json) => void }> = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const stdin = {
    write: (data: string) => {
      for (const line of data.split('\n').filter(Boolean)) {
        const message = JSON.parse(line) as Json;
        written.push(message);
        for (const w of waiters.splice(0)) if (w.test(message)) w.resolve(message);
        else waiters.push(w);
      }
    },
    flush: () => undefined,
    end: () => undefined,
  };
  return {
    pipes: { stdin, stdout },
    written,
    /** A raw line on the agent's stdout. */
    say(line: string) {
      if (!ended) controller.enqueue(new TextEncoder().encode(`${line}\n`));
    },
    send(message: Json) {
      this.say(JSON.stringify({ jsonrpc: '2.0', ...message }));
    },
    /** The first message tether wrote (or writes) that passes `test`. */
    next(test: (m: Json) => boolean): Promise<Json> {
      const seen = written.find(test);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
    /** Waits for tether's request `method` and answers it. */
    async answer(method: string, result: Json) {
      const request = await this.next((m) => m.method === method && m.id !== undefined && !m.answered);
      request.answered = true;
      this.send({ id: request.id, result });
      return request;
    },
    end() {
      ended = true;
      controller.close();
    },
  };
}
